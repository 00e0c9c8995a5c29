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
import { type Labelled, strongest } from "./labelled.js";
import { statesChanceOfNo } from "./negated-event.js";
import { mapOutcome, type Outcome, resolveTiers, type Tier } from "./outcome.js";
import { plainProbabilities } from "./probability-phrases.js";
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
  /(?<!\w)(?:answer|probability|prediction|forecast|estimate|likelihood|chance|yes|p\((?:yes|no)\)|wahrscheinlichkeit|prognose|probabilidad|pron[oó]stico|probabilit[ée]|probabilit[àa])(?!\w)(?:\s+(?:of|that|for)\b[^:=\n]{0,60}?)?(?:\s*\([^)\n]{0,40}\))?\s*(?::|=|\bis\b(?!['’])|[-–—→|])/gi;
// "## Answer" or "### Probability" on its own line, the figure on the next.
const HEADING_LABEL =
  /^[ \t]*#{1,6}[ \t]*(?:final[ \t]+)?(?:answer|probability|forecast|prediction|estimate)[ \t]*:?[ \t]*\n\s*/gim;

// A label for the other side: "Probability of NO:", "P(NO) =", "Chance of a No outcome:".
const NO_LABEL =
  /(?:(?:probability|chance|likelihood)\s+(?:of|for)\s+(?:an?\s+)?["'“(]?no["'”)]?(?:\s+(?:outcome|resolution|answer))?|(?:probability|chance|likelihood)\s*\(\s*no\s*\)|p\(no\))\s*(?:\([^)\n]{0,40}\))?\s*(?::|=|\bis\b|[-–—→])\s*$/i;
// Words just before a label that make its figure a reference point rather than the answer:
// "Initial estimate: 50%", "Base rate probability: 10%", "Confidence in this forecast: 80%".
const REFERENCE_BEFORE =
  /\b(?:initial|preliminary|prior|base[- ]?rate|market|community|crowd|outside[- ]view|starting|naive|historical|confidence)\b[^\n]{0,40}$/i;
// Phrases that mark the answer itself: the figure after the last of them beats any label.
const FINAL_MARKER =
  /\b(?:final\s+(?:answer|forecast|probability|estimate|prediction|call|number|assessment|odds)\b|final\s*(?=[:=])|bottom line\b|in conclusion\b|verdict\b|I(?:'ll| will)? land (?:at|on)\b|landing (?:at|on)\b|I(?:'ll| will)? settle (?:on|at)\b|settling (?:on|at)\b|I(?:'ll| will)? go with\b|I arrive at\b|I end up (?:at|with)\b)/gi;
// First-person conclusions: without a final marker, the last of these states the answer, even
// over earlier figures written next to "chance" ("Analysts give a 70% chance …").
const CONCLUSION_MARKER =
  /\b(?:I think|I believe|I(?:'m| am) at|gives me|all told|all things considered|on balance|I(?:'d| would) say|I(?:'d| would)? estimate|I(?:'d| would)? put (?:it|this|the (?:odds|probability)) at|my (?:best )?(?:guess|estimate|view) is)\b/gi;
// A marker's figure stands in the same clause, within a few words of it: in "In conclusion, the
// 45% base rate is too high" the figure is a reference, not the conclusion.
const MARKED_CLAUSE = /^[^\n]{0,100}?(?=[.!?;](?:\s|$)|\n|$)/;
const MARKED_GAP = 30;
// The only words that may stand between a marker and its figure: in "Final: I expect only modest
// 60% support" the figure describes something else, and a later label states the answer.
const MARKED_GAP_WORDS = new Set(
  "is at of be to around about roughly approximately approx maybe probably perhaps just only a an the i i'd i'll i'm would will say put it it's this that call go going with settle land landing on my final here now then therefore thus overall yes in probability chance odds likelihood estimate forecast answer prediction number".split(
    " ",
  ),
);
const GAP_SEPARATORS = /[\s:=~≈,*—–-]+/;
// Words a model may put between a label and its figure: "Estimate: somewhere in the 30% range".
const LABEL_FILLER = /^(?:\s*(?:somewhere|in the|around|close to|near|maybe|likely|roughly)\b)*/i;
// "30% or 40%", "0.3/0.4": two answers where one is asked for.
const ALTERNATIVE_AFTER = /^\s*(?:or|\/)\s*(?:(?:maybe|perhaps|possibly|about)\s+|~)?\d/;

// A conclusion in words after the last figure ("I'd say it's unlikely", "better than even"): the
// figures before it are the evidence, not the answer, so prose is not read for one.
const VERDICT_IN_WORDS =
  /\b(?:un)?likely\b|\b(?:improbable|doubtful|long shot|(?:near(?:ly)?|almost)\s+certain(?:ty|ly)?|remote|(?:better|worse)\s+than\s+even)\b/i;
const SENTENCE_END = /[.!?\n]/g;

// ForecastBench asks for the final probability between single asterisks: "*0.62*".
const ASTERISKED = /(?<!\*)\*([^*\n]{1,24})\*(?!\*)/g;

const ODDS_JOINER = /^\s*(?:in|out of)\s+/;
const WORD_AFTER =
  /^\s*(?:chance|probability|likelihood|likely|odds|risk|shot|sure|confident|certain)\b/i;
// The words may lead up to the figure only through the event and linking words: "a chance of
// about 62%", "the probability of flooding at 15%", "I estimate 62%", but not "a 62% chance, up
// from 40%" or "the probability of a recession is often cited as 30%" (someone else's figure).
// "isn't 50%", "not 70%": a figure written to be rejected.
const REJECTED_BEFORE = /(?:\bnot|n['’]t)\s+(?:about\s+|around\s+)?$/i;
const EVENT = String.raw`(?:(?!\b(?:is|was|are|were|has|have|had|been|but|and|than|from|although|though|while|whereas|because)\b)[^.\d\n%]){0,60}?`;
const WORD_BEFORE = new RegExp(
  String.raw`(?:(?:chance|probability|likelihood|odds)(?:\s+(?:(?:of|that|for)\s)?${EVENT})?|(?:estimate|forecast|prediction)(?:\s+(?:of|that|for)\s${EVENT})?|put (?:it|this|the odds|the probability) at|I(?:'d| would)? put|I(?:'d| would) say)(?:\s+(?:of|at|is|are|to be|would be|will be|as))?[\s:]*(?:(?:about|around|roughly|approximately|approx\.|nearly|some|a|an)\s+)*$`,
  "i",
);

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

function complement(raw: RawNumber): RawNumber {
  const percent = raw.percent || raw.value > 1;
  return { value: (percent ? 100 : 1) - raw.value, percent };
}

/**
 * The figure stated at `index`, for "yes" when stated for "no" (after a label for the other side,
 * or in words of the event not happening); two figures offered as alternatives read as no
 * valid figure.
 */
function statedAt(text: string, index: number, noLabel: boolean): RawNumber | null {
  const filler = LABEL_FILLER.exec(text.slice(index, index + 40))?.[0].length ?? 0;
  const figure = readProbabilityAt(text, index + filler);
  if (figure === null) return null;
  if (ALTERNATIVE_AFTER.test(text.slice(figure.end, figure.end + 20))) {
    return { value: Number.NaN, percent: false };
  }
  const negated = noLabel !== statesChanceOfNo(text, figure.start, figure.end);
  return negated ? complement(figure.raw) : figure.raw;
}

function onlyLinkingWords(gap: string): boolean {
  return gap
    .toLowerCase()
    .replace(/’/g, "'")
    .split(GAP_SEPARATORS)
    .every((word) => word === "" || MARKED_GAP_WORDS.has(word));
}

function lineBefore(text: string, index: number): string {
  const before = text.slice(Math.max(0, index - 60), index);
  return before.slice(before.lastIndexOf("\n") + 1);
}

/**
 * A figure in a marked clause that states a chance: a percentage, a fraction, odds, or any
 * figure right after ":" or "=" ("Final answer: 35"). "The verdict is due in 3 weeks" is not.
 */
function readsAsProbability(clause: string, token: NumberToken): boolean {
  if (isYearLike(token)) return false;
  if (token.percent || (!token.bareInteger && token.value > 0 && token.value <= 1)) return true;
  return (
    ODDS_JOINER.test(clause.slice(token.end)) ||
    /(?:[:=—–-]|\b(?:is|at))[\s~≈]*(?:about\s+|around\s+)?$/.test(clause.slice(0, token.start))
  );
}

/** The figure after each `marker` ("Final: 20%", "I land at 40%"), for "yes". */
function markedProbabilities(text: string, markerPattern: RegExp): RawNumber[] {
  const found: RawNumber[] = [];
  for (const marker of text.matchAll(markerPattern)) {
    const from = marker.index + marker[0].length;
    const clause = MARKED_CLAUSE.exec(text.slice(from, from + 120))?.[0] ?? "";
    const token = findNumbers(clause).find((candidate) => readsAsProbability(clause, candidate));
    if (
      token === undefined ||
      token.start > MARKED_GAP ||
      /\bthe\s*$/i.test(clause.slice(0, token.start)) ||
      !onlyLinkingWords(clause.slice(0, token.start))
    ) {
      continue;
    }
    const lead = text.slice(marker.index, from + token.start);
    const raw = statedAt(text, from + token.start, NO_LABEL.test(lead));
    if (raw !== null) found.push(raw);
  }
  return found;
}

function labelledProbabilities(text: string): RawNumber[] {
  const labelled: Labelled<RawNumber>[] = [];
  for (const match of text.matchAll(PROBABILITY_LABEL)) {
    const before = lineBefore(text, match.index);
    if (REFERENCE_BEFORE.test(before)) continue;
    const raw = statedAt(text, match.index + match[0].length, NO_LABEL.test(before + match[0]));
    if (raw !== null) {
      labelled.push({ figure: raw, index: match.index, strong: /[:=|]\s*$/.test(match[0]) });
    }
  }
  for (const match of text.matchAll(HEADING_LABEL)) {
    const raw = statedAt(text, match.index + match[0].length, false);
    if (raw !== null) labelled.push({ figure: raw, index: match.index, strong: true });
  }
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
    if (/\bconfidence\b/i.test(lineBefore(text, figure.start))) continue;
    if (REJECTED_BEFORE.test(lineBefore(text, figure.start))) continue;
    const attached =
      WORD_AFTER.test(text.slice(figure.end)) ||
      WORD_BEFORE.test(text.slice(Math.max(0, figure.start - 60), figure.start));
    const raw = statesChanceOfNo(text, figure.start, figure.end)
      ? complement(figure.raw)
      : figure.raw;
    found.push({ raw, fraction, attached });
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

function lastDigitAt(text: string): number {
  for (let index = text.length - 1; index >= 0; index--) {
    const code = text.charCodeAt(index);
    if (code >= 48 && code <= 57) return index;
  }
  return -1;
}

/** Whether a sentence after the last figure concludes in words. */
function concludesInWords(text: string): boolean {
  const last = lastDigitAt(text);
  SENTENCE_END.lastIndex = last + 1;
  const sentenceEnd = last === -1 ? 0 : (SENTENCE_END.exec(text)?.index ?? text.length);
  return VERDICT_IN_WORDS.test(text.slice(sentenceEnd));
}

/** A probability for "yes" from the most explicit statement in `text`. */
export function extractBinary(text: string): Outcome<ForecastAnswer> {
  const plain = plainText(text);
  const prose = plainProbabilities(withoutDates(plain));
  // Computed once, on first use: three tiers read it.
  let figures: ProseFigure[] | null = null;
  const proseFigures = (): ProseFigure[] => {
    figures ??= proseProbabilities(prose);
    return figures;
  };
  const explicit: Tier<RawNumber>[] = [
    { decisive: true, find: () => jsonProbabilities(plain) },
    { decisive: true, find: () => markedProbabilities(prose, FINAL_MARKER) },
    { decisive: true, find: () => labelledProbabilities(prose) },
  ];
  const loose: Tier<RawNumber>[] = [
    { decisive: false, find: () => markedProbabilities(prose, CONCLUSION_MARKER) },
    { decisive: false, find: () => rawOf(proseFigures().filter((figure) => figure.attached)) },
    { decisive: false, find: () => rawOf(proseFigures().filter((figure) => !figure.fraction)) },
    { decisive: false, find: () => rawOf(proseFigures().filter((figure) => figure.fraction)) },
    { decisive: true, find: () => lastFigure(prose) },
  ];
  const outcome = resolveTiers<RawNumber, number>(
    concludesInWords(prose) ? explicit : [...explicit, ...loose],
    toProbability,
  );
  return mapOutcome(outcome, (probability) => ({ type: "binary", probability }));
}
