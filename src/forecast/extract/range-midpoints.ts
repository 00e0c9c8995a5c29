/*
 * Ranges of chances read as their midpoints: "20-30%" → "25%", "between .2 and .3" → "0.25".
 */
import { formatNumber } from "../numbers.js";
import { allCases, holdsAny, holdsLetter } from "./matches.js";

const DIGITS = String.raw`\d+(?:\.\d+)?`;
const PERCENT = String.raw`\s*(?:%|per\s?cent\b)`;
// "from 30% to 35%" is a revision, not a range: its last figure is the one committed to.
const RANGE = new RegExp(
  String.raw`(?<![\w.])(?<!\bfrom\s{1,3})(?:between\s+)?(${DIGITS})(${PERCENT})?\s*(?:-|–|—|to|and)\s*(${DIGITS})(${PERCENT})`,
  "gi",
);
const FRACTION_RANGE =
  /(?<![\w.])(?<!\bfrom\s{1,3})(?:between\s+)?(0?\.\d+)\s*(?:-|–|—|to|and)\s*(0?\.\d+)(?![\d.])/gi;

// What every match of RANGE holds from the last digit of its first figure on, and of
// FRACTION_RANGE from its first figure's point on: a pattern that opens with a digit or a point
// is searched for several times faster than the ranges' own, which open with a look behind
// tried at every character.
const RANGE_CORE = new RegExp(
  String.raw`\d(?:${PERCENT})?\s*(?:-|–|—|to|and)\s*${DIGITS}${PERCENT}`,
  "i",
);
const FRACTION_RANGE_CORE = /\.\d+\s*(?:-|–|—|to|and)\s*0?\.\d/i;
const RANGE_WRITTEN = /(?:-|–|—|to|and)\s*\.?\d/i;
const RANGE_DASHES = ["-", "–", "—"];
const RANGE_WORDS = [...allCases("to"), ...allCases("and")];

// Below this, half a whole sum is written as its digits and at most ".5", as formatNumber
// writes it, without a conversion of a fraction to text.
const WHOLE_SUM_LIMIT = 1e10;

/** "30% and 40%" is a range only after "between"; otherwise it may be two separate figures. */
function isRange(match: string): boolean {
  // Most ranges are written with a dash or "to": told apart without a pattern.
  if (!match.includes("a") && !match.includes("A")) return true;
  return !/\band\b/i.test(match) || /^between\b/i.test(match);
}

function half(sum: number): string {
  if (!Number.isInteger(sum) || sum >= WHOLE_SUM_LIMIT) return formatNumber(sum / 2);
  return sum % 2 === 0 ? String(sum / 2) : `${(sum - 1) / 2}.5`;
}

function midpoint(match: string, low: string, high: string, percent: boolean): string {
  const a = Number(low);
  const b = Number(high);
  if (!(a <= b) || (percent && b > 100)) return match;
  const middle = half(a + b);
  return percent ? `${middle}%` : middle;
}

/** `text` with each range of percentages or of fractions written as its midpoint. */
export function withRangeMidpoints(text: string): string {
  const written =
    (holdsAny(text, RANGE_DASHES) || (holdsLetter(text) && holdsAny(text, RANGE_WORDS))) &&
    RANGE_WRITTEN.test(text);
  if (!written) return text;
  const out = RANGE_CORE.test(text)
    ? text.replace(RANGE, (match, low: string, _percent: string | undefined, high: string) =>
        isRange(match) ? midpoint(match, low, high, true) : match,
      )
    : text;
  if (!FRACTION_RANGE_CORE.test(out)) return out;
  return out.replace(FRACTION_RANGE, (match, low: string, high: string) =>
    isRange(match) ? midpoint(match, low, high, false) : match,
  );
}
