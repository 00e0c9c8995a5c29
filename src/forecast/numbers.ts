import { holdsLetter } from "./extract/matches.js";
import { type NumberToken, readNumberAt } from "./number-tokens.js";

export {
  findNumbers,
  type NumberToken,
  readNumberAt,
  scaleOfWord,
} from "./number-tokens.js";

/** The number that `text` consists of ("62%", " 0.62 ", "$1,250"), or null. */
export function wholeNumber(text: string): NumberToken | null {
  const token = readNumberAt(text, 0);
  return token !== null && text.slice(token.end).trim() === "" ? token : null;
}

// "12,5" and "0,375" in languages that write a decimal comma; "1,250" keeps its thousands comma.
const DECIMAL_COMMA = /(?<![\d.,])(\d{1,3}),(\d{1,2})(?![\d,])|(?<![\d.,])0,(\d+)(?![\d,])/g;

/** `text` with decimal commas written as points ("Mittelwert: 12,5" → "Mittelwert: 12.5"). */
export function withDecimalPoints(text: string): string {
  // Both forms hold a comma before a digit; a search for that skips over other digits, and a
  // search for the comma alone over the whole text.
  if (!text.includes(",") || !/,\d/.test(text)) return text;
  return text.replace(
    DECIMAL_COMMA,
    (_, whole: string | undefined, decimals: string | undefined, fraction: string | undefined) =>
      fraction === undefined ? `${whole}.${decimals}` : `0.${fraction}`,
  );
}

/** A plain integer that reads as a calendar year. */
export function isYearLike(token: NumberToken): boolean {
  return token.bareInteger && token.value >= 1900 && token.value <= 2100;
}

const MONTH =
  "(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)";
// A date's parts stand on one line: "in March.\n\n10th percentile: 2.1M" holds no date. Each
// pattern of digits alone comes with what all its dates hold beyond digits, tested first: a
// pattern that starts at a digit tries every digit of the text, a test for a sign skips over
// them. Both also hold a sign, looked for before their marks (see extract/matches.ts).
const NUMERIC_DATES: [pattern: RegExp, mark: RegExp, sign: string][] = [
  [/\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?Z?)?\b/g, /-\d\d-/, "-"],
  [/\b\d{1,2}\/\d{1,2}\/\d{2,4}\b/g, /\/\d{1,2}\//, "/"],
];
// Dates with a month's name, looked for where one is written: blanking the dates of one
// pattern leaves the other nothing it could have found without a month.
const NAMED_DATES = [
  new RegExp(String.raw`\b${MONTH}\.?[ \t]+\d{1,2}(?:st|nd|rd|th)?\b(?:,?[ \t]+\d{4}\b)?`, "g"),
  new RegExp(
    String.raw`\b\d{1,2}(?:st|nd|rd|th)?[ \t]+(?:of[ \t]+)?${MONTH}\b(?:,?[ \t]+\d{4}\b)?`,
    "g",
  ),
];
const MONTH_NAME = new RegExp(MONTH);

function blanked(date: string): string {
  return " ".repeat(date.length);
}

/** `text` with calendar dates blanked out (same length, so positions still line up). */
export function withoutDates(text: string): string {
  let current = text;
  for (const [pattern, mark, sign] of NUMERIC_DATES) {
    if (current.includes(sign) && mark.test(current)) current = current.replace(pattern, blanked);
  }
  if (!holdsLetter(current) || !MONTH_NAME.test(current)) return current;
  for (const pattern of NAMED_DATES) current = current.replace(pattern, blanked);
  return current;
}

/** The median of a non-empty list. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle] ?? 0;
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] ?? upper) + upper) / 2;
}

// Characters of a number written in at most this many significant digits: a shortest form this
// long has no noise to remove, and toPrecision, which costs more than the rest of a range's
// rewriting, is not asked.
const PLAIN_DIGITS = 12;

/** A number as short plain text: float noise removed ("10.625000000000002" → "10.625"). */
export function formatNumber(value: number): string {
  const shortest = String(value);
  if (shortest.length <= PLAIN_DIGITS && !shortest.includes("e")) return shortest;
  return String(Number(value.toPrecision(PLAIN_DIGITS)));
}

/** A number rounded to at most `decimals` places, without trailing zeros. */
export function formatRounded(value: number, decimals: number): string {
  return String(Number(value.toFixed(decimals)));
}
