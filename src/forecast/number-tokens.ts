/*
 * Numbers as written in text, read by one scan of character codes. Every reading of a reply
 * starts from its numbers, and a long reply holds thousands: a regular expression with groups
 * allocated an array and eight strings per number and cost a 100 kB reply of numbers ~10 ms,
 * where this scan costs a fraction of one. What it reads is exactly what this pattern matches
 * (the tests hold it to the pattern):
 *
 *   (?<![\w.])(?<![A-Za-z]-)([-−]?)([$€£]?)(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)
 *   (?:[eE]([-+]?\d+))?(?:\s*%|\s*per\s?cent\b|(?:k|K|M|mn|bn|tn|B|T)(?!\w)|\s+(?:thousand|million|billion|trillion)\b)?
 *
 * Digits must not continue a word ("A1", "v0.5") or a hyphenated name ("COVID-19"); a minus sign
 * right after a digit is a range dash ("30-50"), not a sign. A figure glued to a word ("10th",
 * "3am", "2x") is no quantity, and is skipped whole.
 */

import { keepingLast } from "./last-reading.js";

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

const LONG_UNITS = ["thousand", "million", "billion", "trillion"];
// Their first letters: most figures followed by a space are followed by another word.
const LONG_UNIT_INITIALS = new Set([..."tmb"].map((char) => char.charCodeAt(0)));
// Hedges that may stand between a label and its figure ("Probability: about 62%").
const HEDGE_WORDS = ["about", "around", "approximately", "approx.", "roughly", "nearly", "circa"];

const MINUS = 0x2212;
const EURO = 0x20ac;
const POUND = 0xa3;
const ALMOST_EQUAL = 0x2248;

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

export function isAsciiLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/** `\w` of a regular expression without the u flag. */
function isWordCode(code: number): boolean {
  return isDigit(code) || isAsciiLetter(code) || code === 95;
}

/** `\s` of a regular expression. */
export function isSpaceCode(code: number): boolean {
  if (code <= 32) return code === 32 || (code >= 9 && code <= 13);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

// Where a number may start: a digit, a point, a sign or a currency. A search for these passes
// over prose several times faster than a look at each code.
const NUMBER_START = /[\d.\-\u2212$\u20ac\u00a3]/g;

function digitsEnd(text: string, from: number): number {
  let index = from;
  while (isDigit(text.charCodeAt(index))) index++;
  return index;
}

/** Where the spaces (`\s*`) written from `from` end. */
export function spacesEnd(text: string, from: number): number {
  let index = from;
  while (isSpaceCode(text.charCodeAt(index))) index++;
  return index;
}

/**
 * Whether `word` is written at `index`, compared code by code: a string method would be a call
 * per figure on the whole text.
 */
function writtenAt(text: string, index: number, word: string): boolean {
  for (let at = 0; at < word.length; at++) {
    if (text.charCodeAt(index + at) !== word.charCodeAt(at)) return false;
  }
  return true;
}

/** Whether `word` is written at `index` and no word character follows it (`word\b`). */
function wordAt(text: string, index: number, word: string): boolean {
  return writtenAt(text, index, word) && !isWordCode(text.charCodeAt(index + word.length));
}

/** Where the digits of a number starting at `from` end ("1,250.5", "42", ".62"), or -1. */
function mantissaEnd(text: string, from: number): number {
  const integerEnd = digitsEnd(text, from);
  let end = integerEnd;
  const integerDigits = integerEnd - from;
  if (integerDigits >= 1 && integerDigits <= 3) {
    // Thousands groups: ",ddd" as many times as written.
    while (
      text.charCodeAt(end) === 44 &&
      isDigit(text.charCodeAt(end + 1)) &&
      isDigit(text.charCodeAt(end + 2)) &&
      isDigit(text.charCodeAt(end + 3))
    ) {
      end += 4;
    }
  }
  if (integerDigits === 0 && text.charCodeAt(from) !== 46) return -1;
  if (text.charCodeAt(end) === 46 && isDigit(text.charCodeAt(end + 1))) {
    return digitsEnd(text, end + 1);
  }
  return integerDigits === 0 ? -1 : end;
}

/** Where a short unit ("k", "M", "bn") written at `index` ends, or -1. */
function shortUnitEnd(text: string, index: number): number {
  const code = text.charCodeAt(index);
  let end = -1;
  if (code === 107 || code === 75 || code === 77 || code === 66 || code === 84) end = index + 1;
  else if ((code === 109 || code === 98 || code === 116) && text.charCodeAt(index + 1) === 110) {
    end = index + 2;
  }
  return end !== -1 && !isWordCode(text.charCodeAt(end)) ? end : -1;
}

/** Where "%" or "percent" written after spaces at `index` ends, or -1. */
function percentEnd(text: string, index: number): number {
  const at = spacesEnd(text, index);
  if (text.charCodeAt(at) === 37) return at + 1;
  if (!writtenAt(text, at, "per")) return -1;
  const cent = isSpaceCode(text.charCodeAt(at + 3)) ? at + 4 : at + 3;
  return wordAt(text, cent, "cent") ? cent + 4 : -1;
}

// Powers of ten that are exact doubles, for reading short decimals without a string.
const EXACT_POWERS = Array.from({ length: 16 }, (_, power) => 10 ** power);
const EXACT_DIGITS = 15;

/**
 * The value of the digits from `from` to `to` ("1,250.5"), thousands commas skipped. Up to 15
 * digits, the digits as an integer divided by a power of ten: both exact, so the quotient is the
 * correctly rounded value, the one Number() reads from the string.
 */
function mantissaValue(text: string, from: number, to: number): number {
  let integer = 0;
  let digits = 0;
  let decimals = -1;
  for (let index = from; index < to; index++) {
    const code = text.charCodeAt(index);
    if (code === 46) decimals = 0;
    else if (code !== 44) {
      integer = integer * 10 + (code - 48);
      digits++;
      if (decimals !== -1) decimals++;
    }
  }
  if (digits > EXACT_DIGITS) return Number(text.slice(from, to).replace(/,/g, ""));
  return decimals <= 0 ? integer : integer / (EXACT_POWERS[decimals] as number);
}

/**
 * Reads the number whose match starts at `start` into `into`, unless it is glued to a word or
 * not finite, and returns where the match ends: -1 when no number starts there.
 */
function scanAt(text: string, start: number, into: NumberToken[]): number {
  const before = text.charCodeAt(start - 1);
  if (isWordCode(before) || before === 46) return -1;
  if (before === 45 && isAsciiLetter(text.charCodeAt(start - 2))) return -1;
  let index = start;
  let code = text.charCodeAt(index);
  const negative = code === 45 || code === MINUS;
  if (negative) code = text.charCodeAt(++index);
  if (code === 36 || code === EURO || code === POUND) index++;
  const digitsFrom = index;
  const digitsTo = mantissaEnd(text, digitsFrom);
  if (digitsTo === -1) return -1;
  let end = digitsTo;
  let exponent = 0;
  const e = text.charCodeAt(end);
  if (e === 101 || e === 69) {
    const sign = text.charCodeAt(end + 1);
    const from = sign === 43 || sign === 45 ? end + 2 : end + 1;
    const to = digitsEnd(text, from);
    if (to > from) {
      exponent = Number(text.slice(end + 1, to));
      end = to;
    }
  }
  let multiplier = 1;
  let percent = false;
  let unit = false;
  const percentTo = percentEnd(text, end);
  if (percentTo !== -1) {
    percent = true;
    end = percentTo;
  } else {
    const shortTo = shortUnitEnd(text, end);
    const spaced = shortTo === -1 && isSpaceCode(text.charCodeAt(end)) ? spacesEnd(text, end) : -1;
    const long =
      spaced === -1 || !LONG_UNIT_INITIALS.has(text.charCodeAt(spaced))
        ? undefined
        : LONG_UNITS.find((word) => wordAt(text, spaced, word));
    if (shortTo !== -1) {
      multiplier = MULTIPLIERS[text.slice(end, shortTo).toLowerCase()] ?? 1;
      unit = true;
      end = shortTo;
    } else if (long !== undefined) {
      multiplier = MULTIPLIERS[long] ?? 1;
      unit = true;
      end = spaced + long.length;
    }
  }
  // "10th", "3am", "2x": a figure glued to a word is not a quantity.
  if (!unit && !percent && isAsciiLetter(text.charCodeAt(end))) return end;
  const value =
    (negative ? -1 : 1) * mantissaValue(text, digitsFrom, digitsTo) * 10 ** exponent * multiplier;
  if (!Number.isFinite(value)) return end;
  // Nothing but digits from the start to the end: no sign, currency, separator or suffix.
  const bareInteger = end === digitsEnd(text, start);
  into.push({ value, percent, bareInteger, start, end });
  return end;
}

/**
 * The numbers whose match starts from `from` up to `to`, as a scan of the whole text finds
 * them when `from` is where it may start afresh (see numbers-from-end.ts).
 */
export function numbersBetween(text: string, from: number, to: number): NumberToken[] {
  const tokens: NumberToken[] = [];
  // The text up to `to`, so a search for a start stops there; a slice shares the characters.
  const upTo = to === text.length ? text : text.slice(0, to);
  let index = from;
  while (index < to) {
    NUMBER_START.lastIndex = index;
    if (!NUMBER_START.test(upTo)) break;
    const start = NUMBER_START.lastIndex - 1;
    const end = scanAt(text, start, tokens);
    index = end === -1 ? start + 1 : end;
  }
  return tokens;
}

/** Every number written in `text`, in order; shared by the readings of one text. */
export const findNumbers = keepingLast((text: string): readonly NumberToken[] =>
  numbersBetween(text, 0, text.length),
);

/** Where the hedges ("about", "~", spaces) written from `index` end. */
function hedgesEnd(text: string, from: number): number {
  let index = from;
  for (;;) {
    const code = text.charCodeAt(index);
    if (isSpaceCode(code) || code === 42 || code === 126 || code === ALMOST_EQUAL) {
      index++;
      continue;
    }
    const word = HEDGE_WORDS.find(
      (candidate) =>
        writtenAt(text, index, candidate) && isSpaceCode(text.charCodeAt(index + candidate.length)),
    );
    if (word === undefined) return index;
    index += word.length;
  }
}

/** The number starting at `index`, after optional spaces and hedges ("about", "~"). */
export function readNumberAt(text: string, index: number): NumberToken | null {
  const found: NumberToken[] = [];
  scanAt(text, hedgesEnd(text, index), found);
  return found[0] ?? null;
}
