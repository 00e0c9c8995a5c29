import {
  findNumbers,
  isYearLike,
  type NumberToken,
  readNumberAt,
  wholeNumber,
  withoutDates,
} from "../numbers.js";
import type { ForecastAnswer } from "../types.js";
import { findJsonObjects, type JsonObject, normalizeKey, withNested } from "./json-objects.js";
import { type Labelled, labelledFigures, strongest } from "./labelled.js";
import { mapOutcome, type Outcome, resolveTiers } from "./outcome.js";
import { plainText } from "./reply-text.js";
import { type RawNumber, rawNumberFrom, toProbability } from "./validate.js";

// Most specific first: a reply object may also carry a "value" or an "estimate" of something else.
const PROBABILITY_KEYS = [
  "probability",
  "finalprobability",
  "probabilityyes",
  "yesprobability",
  "pyes",
  "prob",
  "p",
  "prediction",
  "finalprediction",
  "forecast",
  "finalforecast",
  "answer",
  "finalanswer",
  "likelihood",
  "chance",
  "yes",
  "estimate",
  "value",
];

const PROBABILITY_LABEL =
  /(?<!\w)(?:answer|probability|prediction|forecast|estimate|likelihood|chance|yes|p\(yes\))(?!\w)(?:\s+(?:of|that|for)\b[^:=\n]{0,60}?)?(?:\s*\([^)\n]{0,40}\))?\s*(?::|=|\bis\b|[-–—→])/gi;

// ForecastBench asks for the final probability between single asterisks: "*0.62*".
const ASTERISKED = /(?<!\*)\*([^*\n]{1,24})\*(?!\*)/g;

const ODDS_JOINER = /^\s*(?:in|out of)\s+/;
const WORD_AFTER = /^\s*(?:chance|probability|likelihood|likely|odds|risk)\b/i;
// The words may lead up to the figure only through the event and linking words: "a chance of
// about 62%", "the probability of flooding at 15%", "I estimate 62%", but not "a 62% chance, up
// from 40%" or "the probability of a recession is often cited as 30%" (someone else's figure).
const WORD_BEFORE =
  /(?:chance|probability|likelihood|odds|estimate|forecast|prediction|put (?:it|this|the odds|the probability) at)(?:\s+(?:of|that|for)\s(?:(?!\b(?:is|was|are|were|has|have|had|been|but|and|than|from)\b)[^.\d\n%]){0,60}?)?(?:\s+(?:of|at|is|to be|would be|will be|as))?[\s:]*(?:(?:about|around|roughly|approximately|approx\.|nearly|some|a|an)\s+)*$/i;

interface Figure {
  raw: RawNumber;
  start: number;
  end: number;
}

/** "3 in 10", "2 out of 3" read as a fraction; otherwise the figure itself. */
function readProbabilityAt(text: string, index: number): Figure | null {
  const token = readNumberAt(text, index);
  if (token === null) return null;
  const joiner = ODDS_JOINER.exec(text.slice(token.end));
  const whole = joiner === null ? null : readNumberAt(text, token.end + joiner[0].length);
  if (whole === null || token.percent || whole.percent || whole.value <= 0) {
    return { raw: token, start: token.start, end: token.end };
  }
  return {
    raw: { value: token.value / whole.value, percent: false },
    start: token.start,
    end: whole.end,
  };
}

function probabilityIn(object: JsonObject): RawNumber | null {
  const byKey = new Map(Object.entries(object).map(([key, inner]) => [normalizeKey(key), inner]));
  const key = PROBABILITY_KEYS.find((candidate) => byKey.has(candidate));
  return key === undefined ? null : rawNumberFrom(byKey.get(key));
}

/** The probability each object states, looking into nested objects when the outer has none. */
function jsonProbabilities(text: string): RawNumber[] {
  return findJsonObjects(text).flatMap((object) => {
    const raw = withNested(object)
      .map(probabilityIn)
      .find((found) => found !== null);
    return raw === undefined || raw === null ? [] : [raw];
  });
}

function labelledProbabilities(text: string): RawNumber[] {
  const labelled: Labelled<RawNumber>[] = labelledFigures(
    text,
    PROBABILITY_LABEL,
    readProbabilityAt,
  ).map((entry) => ({ ...entry, figure: entry.figure.raw }));
  for (const match of text.matchAll(ASTERISKED)) {
    const token = wholeNumber(match[1] ?? "");
    if (token !== null) labelled.push({ figure: token, index: match.index, strong: true });
  }
  return strongest(labelled.sort((a, b) => a.index - b.index));
}

interface ProseFigure {
  raw: RawNumber;
  /** A decimal such as "0.62", as opposed to a percentage or "N in M" odds. */
  fraction: boolean;
  /** Written next to a word of probability: "62% chance", "a chance of 62%", "put it at 0.3". */
  attached: boolean;
}

/** Percentages, "N in M" odds and decimal fractions written in prose. */
function proseProbabilities(text: string): ProseFigure[] {
  const found: ProseFigure[] = [];
  let consumedUntil = 0;
  for (const token of findNumbers(text)) {
    if (token.start < consumedUntil) continue;
    const figure = readProbabilityAt(text, token.start);
    if (figure === null) continue;
    const isOdds = figure.end !== token.end;
    const fraction = !isOdds && !token.percent;
    if (fraction && (token.bareInteger || token.value <= 0 || token.value >= 1)) continue;
    consumedUntil = figure.end;
    const attached =
      WORD_AFTER.test(text.slice(figure.end)) ||
      WORD_BEFORE.test(text.slice(Math.max(0, figure.start - 60), figure.start));
    found.push({ raw: figure.raw, fraction, attached });
  }
  return found;
}

function rawOf(figures: ProseFigure[]): RawNumber[] {
  return figures.map((figure) => figure.raw);
}

/** The last figure that is not a calendar year. */
function lastFigure(text: string): NumberToken[] {
  const figures = findNumbers(text).filter((token) => !isYearLike(token));
  return figures.slice(-1);
}

/** A probability for "yes" from the most explicit statement in `text`. */
export function extractBinary(text: string): Outcome<ForecastAnswer> {
  const plain = plainText(text);
  const prose = withoutDates(plain);
  // Computed once, on first use: three tiers read it.
  let figures: ProseFigure[] | null = null;
  const proseFigures = (): ProseFigure[] => {
    figures ??= proseProbabilities(prose);
    return figures;
  };
  const outcome = resolveTiers<RawNumber, number>(
    [
      { decisive: true, find: () => jsonProbabilities(plain) },
      { decisive: true, find: () => labelledProbabilities(prose) },
      { decisive: false, find: () => rawOf(proseFigures().filter((figure) => figure.attached)) },
      { decisive: false, find: () => rawOf(proseFigures().filter((figure) => !figure.fraction)) },
      { decisive: false, find: () => rawOf(proseFigures().filter((figure) => figure.fraction)) },
      { decisive: true, find: () => lastFigure(prose) },
    ],
    toProbability,
  );
  return mapOutcome(outcome, (probability) => ({ type: "binary", probability }));
}
