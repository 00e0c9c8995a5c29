/**
 * The text a date reader works on, as tokens: runs of digits (any script's, read as numbers),
 * runs of letters (lower-cased, accents removed; letters percent-escaped as in an address are
 * read as those letters), single CJK characters and single marks.
 * Whitespace only separates tokens. One pass over the text: linear whatever it holds.
 *
 * Tokens are held column by column in arrays reused from text to text, so that reading a text
 * allocates nothing per token but the strings of its words: the guard reads every result shown.
 */

import { latinLookAlike } from "./confusables.js";

export const NONE = 0;
export const NUMBER = 1;
export const WORD = 2;
export const MARK = 3;

/** How a word was written: its case matters where a month name is also a common word. */
export const LOWER = 0;
export const CAPITALISED = 1;
export const UPPER = 2;
export const MIXED = 3;

export class Tokens {
  length = 0;
  kind = new Uint8Array(256);
  /** A number's value (exact up to 15 digits). */
  value = new Float64Array(256);
  /** A number's count of digits. */
  digits = new Int32Array(256);
  /** 1 when whitespace stands before the token. */
  gap = new Uint8Array(256);
  /** A word's case: LOWER, CAPITALISED, UPPER or MIXED. */
  shape = new Uint8Array(256);
  /** A mark's classes, as the grammar sorts marks (bits it sets). */
  marks = new Uint8Array(256);
  start = new Int32Array(256);
  end = new Int32Array(256);
  /** A word as the dictionaries key it, or a mark's character; "" for numbers. */
  text: string[] = [];

  kindAt(at: number): number {
    return at >= 0 && at < this.length ? (this.kind[at] as number) : NONE;
  }

  /** The word at `at`, or null. */
  wordAt(at: number): string | null {
    return this.kindAt(at) === WORD ? (this.text[at] as string) : null;
  }

  /** The mark at `at`, or null. */
  markAt(at: number): string | null {
    return this.kindAt(at) === MARK ? (this.text[at] as string) : null;
  }

  /** Whether the token at `at` touches the one before it (no space between). */
  touching(at: number): boolean {
    return at >= 0 && at < this.length && this.gap[at] === 0;
  }

  push(kind: number, text: string, gap: boolean, start: number, end: number): number {
    const at = this.length;
    if (at === this.kind.length) this.grow();
    this.kind[at] = kind;
    this.text[at] = text;
    this.gap[at] = gap ? 1 : 0;
    this.start[at] = start;
    this.end[at] = end;
    this.length = at + 1;
    return at;
  }

  private grow(): void {
    const size = this.kind.length * 2;
    this.kind = grown(this.kind, new Uint8Array(size));
    this.value = grown(this.value, new Float64Array(size));
    this.digits = grown(this.digits, new Int32Array(size));
    this.gap = grown(this.gap, new Uint8Array(size));
    this.shape = grown(this.shape, new Uint8Array(size));
    this.marks = grown(this.marks, new Uint8Array(size));
    this.start = grown(this.start, new Int32Array(size));
    this.end = grown(this.end, new Int32Array(size));
  }
}

function grown<T extends Uint8Array | Int32Array | Float64Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

const LETTER = /[\p{L}\p{M}]/u;
const DIGIT = /\p{Nd}/u;
const WHITE = /[\s\p{Cf}]/u;
/** Han and Hangul characters stand alone: 年, 月, 日, 년, 월, 일 end or start a date part. */
const IDEOGRAPH = /[\p{Script=Han}\p{Script=Hangul}]/u;
const MARKS = /\p{M}/gu;

/** Digit values of non-ASCII decimal digits, filled the first time one is met. */
let digitValues: Map<number, number> | null = null;

function digitValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (digitValues === null) {
    digitValues = new Map();
    // Unicode lays out each script's decimal digits as one run of ten, zero first.
    for (let point = 0x660; point <= 0x1fbf9; point++) {
      if (DIGIT.test(String.fromCodePoint(point)) && !digitValues.has(point)) {
        for (let value = 0; value < 10; value++) digitValues.set(point + value, value);
        point += 9;
      }
    }
  }
  return digitValues.get(code) ?? 0;
}

/**
 * A word as the grammar's dictionaries key it: lower case, without accents, and read as Latin
 * when every letter of it looks Latin (a date must not hide behind a Cyrillic "е" in "June").
 */
export function wordKey(word: string): string {
  const bare = word.normalize("NFD").replace(MARKS, "");
  return (latinLookAlike(bare) ?? bare).toLowerCase();
}

/** The case a word was written in. */
function shapeOf(word: string, ascii: boolean): number {
  if (ascii) {
    let upper = 0;
    for (let index = 0; index < word.length; index++) {
      const code = word.charCodeAt(index);
      if (code >= 65 && code <= 90) upper += 1;
    }
    if (upper === 0) return LOWER;
    if (upper === word.length) return word.length === 1 ? CAPITALISED : UPPER;
    const first = word.charCodeAt(0);
    return upper === 1 && first >= 65 && first <= 90 ? CAPITALISED : MIXED;
  }
  if (word === word.toLowerCase()) return LOWER;
  if (word === word.toUpperCase()) return [...word].length === 1 ? CAPITALISED : UPPER;
  const [first = "", ...rest] = word;
  const tail = rest.join("");
  return first === first.toUpperCase() && tail === tail.toLowerCase() ? CAPITALISED : MIXED;
}

/**
 * The tokens of `text`, in arrays shared by every call: valid until the next call, which
 * overwrites them.
 */
export function tokenize(text: string): Tokens {
  const tokens = shared;
  tokens.length = 0;
  let gap = false;
  let index = 0;
  while (index < text.length) {
    const code = text.codePointAt(index) as number;
    const width = code > 0xffff ? 2 : 1;
    // Escaped invisible characters in an address ("10%E2%80%8B-2026") are no more there than
    // the characters themselves would be in text.
    const invisibleEnd = invisibleEscapesEnd(text, index);
    if (invisibleEnd > index) {
      index = invisibleEnd;
      continue;
    }
    // An escaped ideograph is one token, as it is unescaped: 令和 in an address is two.
    const ideograph = code === PERCENT ? escapedIdeographEnd(text, index) : index;
    if (ideograph > index) {
      tokens.push(WORD, escapedText(text.slice(index, ideograph)), gap, index, ideograph);
      index = ideograph;
      gap = false;
      continue;
    }
    const kind =
      code === PERCENT && startsEscapedLetters(text, index) ? LETTER_CLASS : classOf(code);
    if (kind === DIGIT_CLASS) {
      index = readNumber(tokens, text, index, gap);
    } else if (kind === IDEOGRAPH_CLASS) {
      tokens.push(WORD, text.slice(index, index + width), gap, index, index + width);
      index += width;
    } else if (kind === LETTER_CLASS) {
      index = readWord(tokens, text, index, gap);
    } else if (kind === WHITE_CLASS) {
      index += width;
      gap = true;
      continue;
    } else {
      tokens.push(MARK, text.slice(index, index + width), gap, index, index + width);
      index += width;
    }
    gap = false;
  }
  return tokens;
}

const shared = new Tokens();

/** Reads the run of digits at `start` (escaped invisibles inside it skipped) as one number. */
function readNumber(tokens: Tokens, text: string, start: number, gap: boolean): number {
  let index = start;
  let value = 0;
  let digits = 0;
  while (index < text.length) {
    const next = text.codePointAt(index) as number;
    const invisible = invisibleEscapesEnd(text, index);
    if (invisible > index) {
      index = invisible;
      continue;
    }
    if (classOf(next) !== DIGIT_CLASS) break;
    // Long runs are no dates; their value only needs to stay a number.
    if (digits < 15) value = value * 10 + digitValue(next);
    digits += 1;
    index += next > 0xffff ? 2 : 1;
  }
  const at = tokens.push(NUMBER, "", gap, start, index);
  tokens.value[at] = value;
  tokens.digits[at] = digits;
  return index;
}

/** Reads the run of letters at `start` as one word; the offset after it. */
function readWord(tokens: Tokens, text: string, start: number, gap: boolean): number {
  let index = start;
  let ascii = true;
  // Letters escaped in an address ("juni%CE%BF"), read as the letters they stand for.
  let escaped: string | null = null;
  let rest = start;
  while (index < text.length) {
    const next = text.codePointAt(index) as number;
    if (next === PERCENT) {
      const end = escapedLettersEnd(text, index);
      const run = end > index ? text.slice(index, end) : "";
      const letters =
        run === "" ? null : INVISIBLE_RUN.test(escapedText(run)) ? "" : escapedLetters(run);
      if (letters === null) break;
      escaped = (escaped ?? "") + text.slice(rest, index) + letters;
      ascii = false;
      index = end;
      rest = end;
      continue;
    }
    if (classOf(next) !== LETTER_CLASS) break;
    if (next > 127) ascii = false;
    index += next > 0xffff ? 2 : 1;
  }
  const word = escaped === null ? text.slice(start, index) : escaped + text.slice(rest, index);
  const at = tokens.push(WORD, ascii ? word.toLowerCase() : wordKey(word), gap, start, index);
  tokens.shape[at] = shapeOf(word, ascii);
  return index;
}

const PERCENT = 37;
const HEX = /^[0-9A-Fa-f]{2}$/;
const LETTERS = /^[\p{L}\p{M}]+$/u;
const INVISIBLE_RUN = /^[\p{Cf}\p{Default_Ignorable_Code_Point}]+$/u;
const INVISIBLES = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;
const UTF8 = new TextDecoder("utf-8");

/** The end of the escaped invisible characters at `from` (each read alone); `from` when none. */
function invisibleEscapesEnd(text: string, from: number): number {
  let index = from;
  for (;;) {
    const end = escapedCharEnd(text, index);
    if (end === index || !INVISIBLE_RUN.test(escapedText(text.slice(index, end)))) return index;
    index = end;
  }
}

/** The end of the escapes of the one character encoded at `from`; `from` when there is none. */
function escapedCharEnd(text: string, from: number): number {
  if (text.charCodeAt(from) !== PERCENT) return from;
  const lead = Number.parseInt(text.slice(from + 1, from + 3), 16);
  const bytes = lead < 0x80 ? 1 : lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 0;
  if (bytes === 0) return from;
  // Only this character's escapes are looked at: a long run stays linear.
  for (let at = from; at < from + 3 * bytes; at += 3) {
    if (text.charCodeAt(at) !== PERCENT || !HEX.test(text.slice(at + 1, at + 3))) return from;
  }
  return from + 3 * bytes;
}

/** The end of the escapes at `from` when they encode an ideograph, else `from`. */
function escapedIdeographEnd(text: string, from: number): number {
  const end = escapedCharEnd(text, from);
  return end > from && encodesIdeograph(text, from, end) ? end : from;
}

/** Whether the escapes of one character, from `from` to `end`, encode an ideograph. */
function encodesIdeograph(text: string, from: number, end: number): boolean {
  const code = escapedText(text.slice(from, end)).codePointAt(0) as number;
  return classOf(code) === IDEOGRAPH_CLASS;
}

/** The end of the run of percent-escapes at `from`, stopping before an escaped ideograph. */
function escapedLettersEnd(text: string, from: number): number {
  let index = from;
  for (;;) {
    const end = escapedCharEnd(text, index);
    if (end === index || encodesIdeograph(text, index, end)) return index;
    index = end;
  }
}

/** Whether the percent-escapes at `from` stand for letters ("%CE%9Cay", "4%CE%A4%CE%97"). */
function startsEscapedLetters(text: string, from: number): boolean {
  const end = escapedLettersEnd(text, from);
  return end > from && escapedLetters(text.slice(from, end)) !== null;
}

/** The text a run of percent-escapes stands for. */
function escapedText(run: string): string {
  const bytes = new Uint8Array(run.length / 3);
  for (let index = 0; index < bytes.length; index++) {
    bytes[index] = Number.parseInt(run.slice(3 * index + 1, 3 * index + 3), 16);
  }
  return UTF8.decode(bytes);
}

/**
 * The letters a run of percent-escapes stands for, invisible characters among them left out, or
 * null when it stands for anything else.
 */
function escapedLetters(run: string): string | null {
  const letters = escapedText(run).replace(INVISIBLES, "");
  return LETTERS.test(letters) ? letters : null;
}

const DIGIT_CLASS = 0;
const LETTER_CLASS = 1;
const IDEOGRAPH_CLASS = 2;
const WHITE_CLASS = 3;
const MARK_CLASS = 4;

/** ASCII classes by code, so that plain text never reaches a Unicode property test. */
const ASCII_CLASS = Array.from({ length: 128 }, (_, code) => {
  if (code >= 48 && code <= 57) return DIGIT_CLASS;
  if ((code >= 65 && code <= 90) || (code >= 97 && code <= 122)) return LETTER_CLASS;
  if (code === 32 || (code >= 9 && code <= 13)) return WHITE_CLASS;
  return MARK_CLASS;
});

function classOf(code: number): number {
  if (code < 128) return ASCII_CLASS[code] as number;
  const char = String.fromCodePoint(code);
  if (DIGIT.test(char)) return DIGIT_CLASS;
  if (IDEOGRAPH.test(char)) return IDEOGRAPH_CLASS;
  if (LETTER.test(char)) return LETTER_CLASS;
  if (WHITE.test(char)) return WHITE_CLASS;
  return MARK_CLASS;
}
