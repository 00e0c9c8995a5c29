import { spacesEnd } from "../number-tokens.js";
import { isYearLike, type NumberToken, readNumberAt, scaleOfWord } from "../numbers.js";
import { type NumbersFromEnd, numbersFromEnd } from "../numbers-from-end.js";
import { isEvidence, sourcedAfter } from "./evidence.js";
import { normalQuantile } from "./normal.js";

// "42.5 ± 5.2", "1,750,000 (σ = 150,000)", "14.2 seats (SD 2.1)": a figure and its spread.
// A unit may stand before a bracketed spread, never before a bare "±", which would let a poll's
// "45% of voters ± 3" pass for a forecast.
// "1.2M, give or take 150k" and "~$1.87tn, standard deviation $0.05tn" say the same.
const SPREAD_AFTER =
  /(?:[ \t]*,?[ \t]*\(?[ \t]*(?:±|\+\/-|\+\/−|\+-|plus or minus|give or take)|(?:[ \t]+[A-Za-z][\w-]*){0,2}[ \t]*[,;]?[ \t]*\(?[ \t]*(?:with[ \t]+(?:an?[ \t]+)?)?(?:σ|sd|s\.d\.|std\.?(?:[ \t]*dev\.?)?|stdev|standard deviation|sigma)[ \t]*(?:[:=≈~]|of)?)[ \t]*/iy;

// What every joiner of a spread holds, case-blind as the joiner is: a text without any is not
// read figure by figure for one, which on a reply of thousands of figures cost ~7 ms.
const SPREAD_WRITTEN = /±|\+|σ|sd|s\.d\.|std|standard deviation|sigma|plus or minus|give or take/i;

const SCALE_WORD = /(?:k|m|mn|bn|tn|b|t|thousand|million|billion|trillion)$/i;

function scaleOf(text: string, token: NumberToken): number | undefined {
  const word = SCALE_WORD.exec(text.slice(token.start, token.end))?.[0];
  return word === undefined ? undefined : scaleOfWord(word);
}

/**
 * The last figure written with its spread, unless it is quoted evidence ("Last year it was
 * 8,994 with a standard deviation of 1,124"). "3.2 ± 0.4 million" scales both by the unit
 * written once at the end.
 */
export function plusMinus(
  text: string,
  numbers: NumbersFromEnd = numbersFromEnd(text),
): { mean: number; standardDeviation: number; index: number } | null {
  if (!SPREAD_WRITTEN.test(text)) return null;
  for (const token of numbers.backwards(true)) {
    SPREAD_AFTER.lastIndex = token.end;
    const joiner = SPREAD_AFTER.exec(text);
    const spread = joiner === null ? null : readNumberAt(text, token.end + joiner[0].length);
    if (spread === null || isEvidence(text, token.start, token.end)) continue;
    const shared = scaleOf(text, token) === undefined ? (scaleOf(text, spread) ?? 1) : 1;
    const mean = token.value * shared;
    // "$28.0bn ± 2%": a spread in percent of a figure that is not one is relative to it.
    const relative = spread.percent && !token.percent;
    const standardDeviation = relative ? (Math.abs(mean) * spread.value) / 100 : spread.value;
    return { mean, standardDeviation, index: token.start };
  }
  return null;
}

const RANGE_JOINER = /^\s*(?:to|and|–|—|-|bis|à|hasta|a)\s*$/i;
const BRACKET_JOINER = /^\s*[,;]\s*$/;
const BRACKET_REACH = 20;

// The interval's stated coverage, written before it ("95% CI: 30–50", "interquartile range
// 35 to 45", "25th–75th percentile: …") or right after it ("30–50 (90% CI)").
const LEVEL_FORMS = [
  String.raw`(?<percent>\d{1,2}(?:\.\d+)?)[ \t]*%[ \t]*(?:confidence|credible|credibility|prediction|probability|uncertainty|likely)?[ \t]*(?:interval|range|CI|CrI|PI|bounds?)`,
  String.raw`(?<foreign>\d{1,2}(?:\.\d+)?)[ \t-]*%[ \t-]*(?:Konfidenzintervall|Intervall|Bereich|intervalo|intervalle|IC)`,
  String.raw`(?:interval|range|CI|CrI|PI|bounds?)[ \t]*\([ \t]*(?<bracketed>\d{1,2}(?:\.\d+)?)[ \t]*%[^)\n]*\)`,
  "(?<quartiles>interquartile|IQR)",
  String.raw`(?<from>\d{1,2})(?:st|nd|rd|th)?[ \t]*(?:–|-|to)[ \t]*(?<to>\d{1,2})(?:st|nd|rd|th)?[ \t]*percentiles?`,
];
const LEVEL_BEFORE = new RegExp(`(?:${LEVEL_FORMS.join("|")})[^\n%]*$`, "i");
const LEVEL_AFTER =
  /^[ \t]*[)\]]?[ \t]*\(?[ \t]*(\d{1,2}(?:\.\d+)?)[ \t]*%[ \t]*(?:confidence|credible|prediction)?[ \t]*(?:interval|range|CI|CrI|PI)/i;
const LEVEL_WINDOW = 80;
// Without a stated level a range is read as the 10th–90th percentile interval.
const DEFAULT_LEVEL = 80;

function statedLevel(text: string, low: NumberToken, high: NumberToken): number | null {
  const before = LEVEL_BEFORE.exec(text.slice(Math.max(0, low.start - LEVEL_WINDOW), low.start));
  const level = before?.groups?.percent ?? before?.groups?.bracketed ?? before?.groups?.foreign;
  if (level !== undefined) return Number(level);
  if (before?.groups?.quartiles !== undefined) return 50;
  const from = before?.groups?.from;
  const to = before?.groups?.to;
  if (from !== undefined && to !== undefined) return Number(to) - Number(from);
  const after = LEVEL_AFTER.exec(text.slice(high.end, high.end + LEVEL_WINDOW));
  return after?.[1] === undefined ? null : Number(after[1]);
}

// What every range holds from the end of its lower bound on: a joiner, then the upper bound's
// first character (a digit, a point, a sign or a currency). A reply of figures that holds
// none, however many figures, is not read figure by figure for a range.
const RANGE_WRITTEN = /(?:to|and|bis|hasta|a|à|[–—\-,;])\s*[\d.\-\u2212$\u20ac\u00a3]/i;
// The characters a joiner of either kind opens with after its spaces, in either case.
const JOINER_OPENINGS = new Set([..."tTaA–—-bBàÀhH,;"].map((char) => char.charCodeAt(0)));

function isRange(text: string, low: NumberToken, high: NumberToken): boolean {
  // Most pairs of a long reply's figures are joined by other words ("%\nB: "): they are told
  // apart on one code, without cutting the joiner out for its patterns.
  if (!JOINER_OPENINGS.has(text.charCodeAt(spacesEnd(text, low.end)))) return false;
  const joiner = text.slice(low.end, high.start);
  if (BRACKET_JOINER.test(joiner)) {
    return (
      /[[(]\s*$/.test(text.slice(Math.max(0, low.start - BRACKET_REACH), low.start)) &&
      /^\s*[\])]/.test(text.slice(high.end, high.end + BRACKET_REACH))
    );
  }
  if (!RANGE_JOINER.test(joiner)) return false;
  const saysBetween = /between\s*$/i.test(text.slice(Math.max(0, low.start - 12), low.start));
  return !/and/i.test(joiner) || saysBetween;
}

/** An interval and the z-score of its upper bound under a normal distribution. */
export interface Interval {
  low: number;
  high: number;
  z: number;
  /** Where the interval is written. */
  index: number;
  /** Its coverage is written next to it rather than assumed. */
  levelStated: boolean;
}

/**
 * The last range written as "between 30 and 50", "30 to 50", "30–50" or "[30, 50]", lower
 * bound first, with its stated coverage; spans of years ("2019–2023") describe history.
 */
export function lastRange(
  text: string,
  numbers: NumbersFromEnd = numbersFromEnd(text),
): Interval | null {
  if (!RANGE_WRITTEN.test(text)) return null;
  // The number after `low`: the upper bound of a range starting at it.
  let following: NumberToken | undefined;
  for (let index = 0; numbers.bounds(index) !== null; index++) {
    if (!numbers.holdsWords(index)) {
      following = undefined;
      continue;
    }
    const tokens = numbers.stretch(index) ?? [];
    for (let at = tokens.length - 1; at >= 0; at--) {
      const low = tokens[at] as NumberToken;
      const high = following;
      following = low;
      if (high === undefined) continue;
      const range = rangeOf(text, low, high);
      if (range !== undefined) return range;
    }
  }
  return null;
}

/** The range from `low` to `high`, null for one of no valid coverage, undefined for none. */
function rangeOf(text: string, low: NumberToken, high: NumberToken): Interval | null | undefined {
  if (low.value >= high.value) return undefined;
  if (isYearLike(low) && isYearLike(high)) return undefined;
  if (!isRange(text, low, high)) return undefined;
  const stated = statedLevel(text, low, high);
  const level = stated ?? DEFAULT_LEVEL;
  if (level <= 0 || level >= 100) return null;
  // "1.5–2.0 million": the scale written once at the end applies to both bounds.
  const shared = scaleOf(text, low) === undefined ? (scaleOf(text, high) ?? 1) : 1;
  const lowValue =
    shared === 1 || low.value * shared >= high.value ? low.value : low.value * shared;
  return {
    low: lowValue,
    high: high.value,
    z: normalQuantile(0.5 + level / 200),
    index: low.start,
    levelStated: stated !== null,
  };
}

/**
 * The last figure not followed by its source or the past ("$1.8 trillion last year"), passing
 * over calendar years unless nothing else is written.
 */
export function lastQuantity(text: string): NumberToken | null {
  let last: NumberToken | null = null;
  for (const token of numbersFromEnd(text).backwards()) {
    if (sourcedAfter(text, token.end)) continue;
    if (!isYearLike(token)) return token;
    last ??= token;
  }
  return last;
}
