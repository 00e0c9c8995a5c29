/** A number as written in text, and where it stands. */
export interface NumberToken {
  value: number;
  /** Written with "%" or "percent". */
  percent: boolean;
  /** Written as a plain integer: no sign, separators, decimals, unit, currency or percent. */
  bareInteger: boolean;
  start: number;
  end: number;
}

const MULTIPLIERS: Record<string, number> = {
  k: 1e3,
  thousand: 1e3,
  m: 1e6,
  mn: 1e6,
  million: 1e6,
  b: 1e9,
  bn: 1e9,
  billion: 1e9,
  t: 1e12,
  tn: 1e12,
  trillion: 1e12,
};

/** What a scale word multiplies by ("k", "bn", "million", "billions"), or undefined. */
export function scaleOfWord(word: string): number | undefined {
  const lower = word.toLowerCase();
  return MULTIPLIERS[lower] ?? (lower.endsWith("s") ? MULTIPLIERS[lower.slice(0, -1)] : undefined);
}

// Digits must not continue a word ("A1", "v0.5") or a hyphenated name ("COVID-19"); a minus sign
// right after a digit is a range dash ("30-50"), not a sign.
// Groups by number, not name (a named match allocates an object of its groups, and a long reply
// holds hundreds of numbers): 1 the whole number, 2 sign, 3 currency, 4 digits, 5 exponent,
// 6 percent, 7 short unit ("bn"), 8 long unit ("billion").
const NUMBER = String.raw`(?<![\w.])(?<![A-Za-z]-)(([-−]?)([$€£]?)(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)(?:[eE]([-+]?\d+))?(?:(\s*%|\s*per\s?cent\b)|(k|K|M|mn|bn|tn|B|T)(?!\w)|\s+(thousand|million|billion|trillion)\b)?)`;

// Hedges that may stand between a label and its figure ("Probability: about 62%").
const HEDGE = String.raw`(?:[\s*~≈]|(?:about|around|approximately|approx\.|roughly|nearly|circa)(?=\s))*`;

const NUMBER_ANYWHERE = new RegExp(NUMBER, "g");
const NUMBER_HERE = new RegExp(HEDGE + NUMBER, "y");

function tokenFrom(match: RegExpExecArray, text: string): NumberToken | null {
  // Indexed, not destructured: destructuring walks an iterator, one more object per number.
  const written = match[1];
  if (written === undefined) return null;
  const sign = match[2];
  const digitsWritten = match[4] ?? "";
  const exponentWritten = match[5];
  const percent = match[6];
  const shortUnit = match[7];
  const longUnit = match[8];
  const end = match.index + match[0].length;
  const unit = shortUnit ?? longUnit;
  // "10th", "3am", "2x": a figure glued to a word is not a quantity.
  if (unit === undefined && percent === undefined && isAsciiLetter(text.charCodeAt(end))) {
    return null;
  }
  const digits = digitsWritten.includes(",") ? digitsWritten.replace(/,/g, "") : digitsWritten;
  const exponent = exponentWritten === undefined ? 0 : Number(exponentWritten);
  const multiplier = unit === undefined ? 1 : (MULTIPLIERS[unit.toLowerCase()] ?? 1);
  const negative = sign === "-" || sign === "−";
  const value = (negative ? -1 : 1) * Number(digits) * 10 ** exponent * multiplier;
  if (!Number.isFinite(value)) return null;
  return {
    value,
    percent: percent !== undefined,
    bareInteger: isDigits(written),
    start: end - written.length,
    end,
  };
}

function isDigits(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 48 || code > 57) return false;
  }
  return text.length > 0;
}

function isAsciiLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/** Every number written in `text`, in order. */
export function findNumbers(text: string): NumberToken[] {
  const tokens: NumberToken[] = [];
  for (const match of text.matchAll(NUMBER_ANYWHERE)) {
    const token = tokenFrom(match as RegExpExecArray, text);
    if (token !== null) tokens.push(token);
  }
  return tokens;
}

/** The number starting at `index`, after optional spaces and hedges ("about", "~"). */
export function readNumberAt(text: string, index: number): NumberToken | null {
  NUMBER_HERE.lastIndex = index;
  const match = NUMBER_HERE.exec(text);
  return match === null ? null : tokenFrom(match, text);
}

/** The number that `text` consists of ("62%", " 0.62 ", "$1,250"), or null. */
export function wholeNumber(text: string): NumberToken | null {
  const token = readNumberAt(text, 0);
  return token !== null && text.slice(token.end).trim() === "" ? token : null;
}

// "12,5" and "0,375" in languages that write a decimal comma; "1,250" keeps its thousands comma.
const DECIMAL_COMMA = /(?<![\d.,])(\d{1,3}),(\d{1,2})(?![\d,])|(?<![\d.,])0,(\d+)(?![\d,])/g;

/** `text` with decimal commas written as points ("Mittelwert: 12,5" → "Mittelwert: 12.5"). */
export function withDecimalPoints(text: string): string {
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
// A date's parts stand on one line: "in March.\n\n10th percentile: 2.1M" holds no date.
const DATES = [
  /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?Z?)?\b/g,
  /\b\d{1,2}\/\d{1,2}\/\d{2,4}\b/g,
  new RegExp(String.raw`\b${MONTH}\.?[ \t]+\d{1,2}(?:st|nd|rd|th)?\b(?:,?[ \t]+\d{4}\b)?`, "g"),
  new RegExp(
    String.raw`\b\d{1,2}(?:st|nd|rd|th)?[ \t]+(?:of[ \t]+)?${MONTH}\b(?:,?[ \t]+\d{4}\b)?`,
    "g",
  ),
];

/** `text` with calendar dates blanked out (same length, so positions still line up). */
export function withoutDates(text: string): string {
  return DATES.reduce(
    (current, pattern) => current.replace(pattern, (date) => " ".repeat(date.length)),
    text,
  );
}

/** The median of a non-empty list. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle] ?? 0;
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] ?? upper) + upper) / 2;
}

/** A number as short plain text: float noise removed ("10.625000000000002" → "10.625"). */
export function formatNumber(value: number): string {
  return String(Number(value.toPrecision(12)));
}

/** A number rounded to at most `decimals` places, without trailing zeros. */
export function formatRounded(value: number, decimals: number): string {
  return String(Number(value.toFixed(decimals)));
}
