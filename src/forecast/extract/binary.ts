import { isYearLike, wholeNumber, withoutDates } from "../numbers.js";
import { numbersFromEnd } from "../numbers-from-end.js";
import type { ForecastAnswer } from "../types.js";
import { lastConclusion, lastDigitAt, lastOwnFigure } from "./conclusions.js";
import { isEvidence } from "./evidence.js";
import { FINAL_MARKER } from "./final-marker.js";
import { findJsonObjects, type JsonObject, normalizeKey, withNested } from "./json-objects.js";
import { type Labelled, strongest } from "./labelled.js";
import { allCases, holdsAny, holdsLetter, matchesHolding, matchesOf } from "./matches.js";
import { mapOutcome, type Outcome, resolveTiers, type Tier } from "./outcome.js";
import { plainProbabilities } from "./probability-phrases.js";
import { type ProseFigure, proseFiguresFromEnd } from "./prose-figures.js";
import { plainText } from "./reply-text.js";
import {
  markedFigures,
  NO_LABEL,
  type StatedFigure,
  statedAt,
  TERM_OF_SUM,
} from "./stated-figure.js";
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
  /(?<!\w)(?:answer|probability|prediction|forecast|estimate|likelihood|chance|yes|p\((?:yes|no)\)|wahrscheinlichkeit|prognose|probabilidad|pron[oó]stico|probabilit[ée]|probabilit[àa])(?!\w)(?:\s+(?:of|that|for)\b[^:=\n]{0,60}?)?(?:\s*\([^)\n]{0,40}\))?\s*(?::|=|\bis\b(?!['’])|[-–—→|])/gi;
// What every label ends with, looked for first: see holdsAny in matches.ts.
const LABEL_ENDS = [":", "=", "-", "–", "—", "→", "|", ...allCases("is")];
// "## Answer" or "### Probability" on its own line, the figure on the next.
const HEADING_LABEL =
  /^[ \t]*#{1,6}[ \t]*(?:final[ \t]+)?(?:answer|probability|forecast|prediction|estimate)[ \t]*:?[ \t]*\n\s*/gim;

// Words just before a label that make its figure a reference point rather than the answer:
// "Initial estimate: 50%", "Previous forecast: 25%", "Base rate probability: 10%", "Confidence
// in this forecast: 80%".
const REFERENCE_BEFORE =
  /\b(?:initial|preliminary|prior|previous|earlier|original|old|draft|last week['’]s|yesterday['’]s|base[- ]?rate|market|community|crowd|outside[- ]view|starting|naive|historical|confidence)\b[^\n]{0,40}$/i;
// A conclusion in words after the last figure ("I'd say it's unlikely", "better than even"): the
// figures before it are the evidence, not the answer, so prose is not read for one.
const VERDICT_IN_WORDS =
  /\b(?:un)?likely\b|\b(?:improbable|doubtful|long shot|(?:near(?:ly)?|almost)\s+certain(?:ty|ly)?|remote|(?:better|worse)\s+than\s+even)\b/i;
const SENTENCE_END = /[.!?\n]/g;

// ForecastBench asks for the final probability between single asterisks: "*0.62*".
// The star is matched before the look back for another, so a search skips to stars alone.
const ASTERISKED = /\*(?<!\*\*)([^*\n]{1,24})\*(?!\*)/g;

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

function lineBefore(text: string, index: number): string {
  const before = text.slice(Math.max(0, index - 60), index);
  return before.slice(before.lastIndexOf("\n") + 1);
}

function labelledProbabilities(text: string, strongOnly: boolean): RawNumber[] {
  const labelled: Labelled<RawNumber>[] = [];
  // Every label starts with a word.
  const worded = holdsLetter(text) && holdsAny(text, LABEL_ENDS);
  const labels = worded ? matchesOf(text, PROBABILITY_LABEL) : [];
  for (const match of labels) {
    const before = lineBefore(text, match.index);
    if (REFERENCE_BEFORE.test(before)) continue;
    const figure = statedAt(text, match.index + match[0].length, NO_LABEL.test(before + match[0]));
    const strong = /[:=|]\s*$/.test(match[0]);
    // "the chance of a shutdown is 60%", after "according to the CBO", is a quoted figure.
    if (figure === null || (!strong && isEvidence(text, figure.start, figure.end))) continue;
    // "P(YES) = 1 - 0.8 = 0.2": the label's first figure is a term of the sum, not its value.
    if (TERM_OF_SUM.test(text.slice(figure.end, figure.end + 12))) continue;
    labelled.push({ figure: figure.raw, index: match.index, strong });
  }
  for (const match of matchesHolding(text, HEADING_LABEL, "#")) {
    const figure = statedAt(text, match.index + match[0].length, false);
    if (figure !== null) labelled.push({ figure: figure.raw, index: match.index, strong: true });
  }
  for (const match of matchesHolding(text, ASTERISKED, "*")) {
    const token = wholeNumber(match[1] ?? "");
    if (token !== null) labelled.push({ figure: token, index: match.index, strong: true });
  }
  return strongest(
    labelled.sort((a, b) => a.index - b.index),
    strongOnly,
  );
}

/** The last figure that is not a calendar year, unless it is quoted evidence. */
function lastFigure(text: string): RawNumber[] {
  for (const token of numbersFromEnd(text).backwards()) {
    if (!isYearLike(token)) return isEvidence(text, token.start, token.end) ? [] : [token];
  }
  return [];
}

function rawOf(figures: StatedFigure[]): RawNumber[] {
  return figures.map((figure) => figure.raw);
}

/** Whether a sentence after the last figure concludes in words. */
function concludesInWords(text: string): boolean {
  const last = lastDigitAt(text);
  SENTENCE_END.lastIndex = last + 1;
  const sentenceEnd = last === -1 ? 0 : (SENTENCE_END.exec(text)?.index ?? text.length);
  return VERDICT_IN_WORDS.test(text.slice(sentenceEnd));
}

function* kept(
  figures: Iterable<ProseFigure>,
  keep: (figure: ProseFigure) => boolean,
): Generator<ProseFigure> {
  for (const figure of figures) if (keep(figure)) yield figure;
}

/**
 * A probability for "yes" from the most explicit statement in `text`; with `committedOnly`,
 * only from a reply object, a final marker or a label written with ":" or "=", never from a
 * figure in prose ("There is roughly a 30% chance…" concludes a paragraph of reasoning too).
 */
export function extractBinary(text: string, committedOnly = false): Outcome<ForecastAnswer> {
  const plain = plainText(text);
  const prose = plainProbabilities(withoutDates(plain));
  const own = (keep: (figure: ProseFigure) => boolean) => () =>
    lastOwnFigure(prose, kept(proseFiguresFromEnd(prose).backwards(), keep));
  const attached = () => lastOwnFigure(prose, proseFiguresFromEnd(prose).attachedBackwards());
  const explicit: Tier<RawNumber>[] = [
    { rule: "json", decisive: true, find: () => jsonProbabilities(plain) },
    {
      rule: "final_statement",
      decisive: true,
      find: () => (holdsLetter(prose) ? rawOf(markedFigures(prose, FINAL_MARKER)) : []),
    },
    { rule: "label", decisive: true, find: () => labelledProbabilities(prose, committedOnly) },
  ];
  const loose: Tier<RawNumber>[] = [
    // Each of these yields one figure: the answer, or an invalid one when two contradict.
    { rule: "conclusion", decisive: true, find: () => lastConclusion(prose) },
    { rule: "stated_chance", decisive: true, find: attached },
    { rule: "last_own_figure", decisive: true, find: own((figure) => !figure.fraction) },
    { rule: "last_own_figure", decisive: true, find: own((figure) => figure.fraction) },
    { rule: "last_figure", decisive: true, find: () => lastFigure(prose) },
  ];
  const outcome = resolveTiers<RawNumber, number>(
    concludesInWords(prose) || committedOnly ? explicit : [...explicit, ...loose],
    toProbability,
  );
  return mapOutcome(outcome, (probability) => ({ type: "binary", probability }));
}
