/*
 * A quantity a reply states after a final marker ("Bottom line: 135", "In conclusion, I expect
 * about 1.2M", "Final forecast: mean of 55 with a standard deviation of 15") is its answer, even
 * when a label with ":" stated another figure earlier ("Estimate: 120").
 */
import { isYearLike, readNumberAt } from "../numbers.js";
import type { ForecastAnswer } from "../types.js";
import { extractContinuous } from "./continuous.js";
import { lastFinalMarker } from "./final-marker.js";
import { holdsLetter } from "./matches.js";
import type { Outcome } from "./outcome.js";
import { quantityText } from "./quantity-text.js";
import { plainText } from "./reply-text.js";
import { extractSingleValue } from "./single-value.js";

// The only words between a marker and its figure: "Bottom line: I expect about 135", "I land
// at roughly 1.2M", "Final forecast: a mean of 55". In "Final: the base rate of 12% …" the
// figure is something else's.
const LEAD =
  /^(?:[\s:=~≈,*>#—–-]+|(?:is|at|of|to|be|around|about|roughly|approximately|approx|maybe|probably|just|i|i['’]d|i['’]ll|i['’]m|i\s+expect|expect|would|will|say|put|it|it['’]s|go|going|with|settle|land|landing|on|my|a|an|answer|estimate|forecast|prediction|value|mean|median|number|here|now|then|so|thus|therefore|overall|somewhere|near)\b)*/i;
// How far after a marker its figure may start.
const REACH = 60;

function found(answer: ForecastAnswer): Outcome<ForecastAnswer> {
  return { kind: "found", answer, rule: "final_statement" };
}

/**
 * The answer stated after the last final marker of `text`, for a quantity: read from there on
 * by the rules for committed statements, else the figure right after the marker. For a
 * continuous answer, that figure needs its spread stated after the marker too: a spread
 * written before it may belong to the figure it replaces, so the answer is then open.
 */
export function finalQuantity(
  type: "continuous" | "continuous_value_only",
  text: string,
): Outcome<ForecastAnswer> {
  if (!holdsLetter(text)) return { kind: "none" };
  const marker = lastFinalMarker(text);
  if (marker === null) return { kind: "none" };
  const tail = text.slice(marker.index);
  const read = type === "continuous" ? extractContinuous : extractSingleValue;
  const committed = read(tail, true);
  if (committed.kind === "found") return found(committed.answer);
  const after = quantityText(plainText(text.slice(marker.end, marker.end + REACH)));
  const lead = LEAD.exec(after)?.[0].length ?? 0;
  const figure = readNumberAt(after, lead);
  if (figure === null) return { kind: "none" };
  // "Bottom line: 2027 …" may be a year or the value: the earlier label is no safer a reading.
  if (isYearLike(figure)) return { kind: "invalid", rule: "final_statement" };
  if (type === "continuous_value_only") return found({ type, value: figure.value });
  const spread = extractContinuous(tail, false);
  return spread.kind === "found" &&
    spread.answer.type === "continuous" &&
    spread.answer.mean === figure.value
    ? found(spread.answer)
    : { kind: "invalid", rule: "final_statement" };
}
