/*
 * Most readings of a reply want its last figures: the last figure stated in one's own voice,
 * the last figure with a spread, the last range. A long reply is read for them from its end,
 * a stretch at a time, and the readings stop as soon as they have what they need: a 100 kB
 * reply of numbers costs what its last stretches cost.
 *
 * A stretch starts where a scan of the whole text starts afresh: after a character that no
 * number, and no figure of odds read from numbers ("3 in 10", "1 out of ~4"), holds except as
 * its last character. "%" ends a number; a bracket, a colon, a quote or a letter outside ASCII
 * is never part of one. The numbers from there on are the same whether the scan began at the
 * start of the text or there, so stretches read apart add up to the numbers of the whole.
 */
import { keepingLast } from "./last-reading.js";
import { isSpaceCode, type NumberToken, numbersBetween } from "./number-tokens.js";

// The least a stretch holds: reading starts this far back from the end of the last one.
const STRETCH_CHARACTERS = 512;

// Anything but a digit, a point, "%" or a space (isBare): searched for by a pattern, which
// passes over a stretch of bare figures several times faster than a look at each code.
const NOT_BARE = /[^\d.%\s]/;

// ASCII characters a number or a figure of odds may hold before its end: separators, signs,
// a currency, hedges ("~", "*"), besides letters, digits and spaces.
const INSIDE = new Set([",", ".", "-", "+", "$", "*", "~"].map((char) => char.charCodeAt(0)));

/** Whether a scan may start afresh right after this character. */
function endsEveryMatch(code: number): boolean {
  if (code === 37) return true;
  if (code < 128) {
    const letterOrDigit =
      (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
    return !letterOrDigit && code > 32 && !INSIDE.has(code);
  }
  // Non-ASCII: spaces, the minus sign, euro, pound and "≈" may stand inside.
  return !(
    isSpaceCode(code) ||
    code === 0x2212 ||
    code === 0x20ac ||
    code === 0xa3 ||
    code === 0x2248
  );
}

/** Where the stretch ending at `end` starts: a fresh start at least `least` characters back. */
function stretchStart(text: string, end: number, least: number): number {
  for (let index = end - least; index > 0; index--) {
    if (endsEveryMatch(text.charCodeAt(index - 1))) return index;
  }
  return 0;
}

/** Where a stretch of the text starts and ends. */
export interface Stretch {
  start: number;
  end: number;
}

/**
 * A text's numbers by stretches, the last stretch first. Where the stretches fall costs a
 * look at a few characters; each stretch's numbers are read once, when first asked for.
 */
export class NumbersFromEnd {
  // Where each stretch starts, the last stretch first: it ends where the one after it starts.
  private readonly starts: number[] = [];
  private readonly numbers: (NumberToken[] | undefined)[] = [];
  private readonly worded: (boolean | undefined)[] = [];

  /** `stretchCharacters`: the least a stretch holds (tests read a text as one stretch). */
  constructor(
    readonly text: string,
    private readonly stretchCharacters = STRETCH_CHARACTERS,
  ) {}

  /** The `index`-th stretch from the end, or null past the start of the text. */
  bounds(index: number): Stretch | null {
    for (let end = this.starts.at(-1) ?? this.text.length; this.starts.length <= index; ) {
      if (end === 0) return null;
      end = stretchStart(this.text, end, this.stretchCharacters);
      this.starts.push(end);
    }
    const start = this.starts[index] as number;
    return { start, end: index === 0 ? this.text.length : (this.starts[index - 1] as number) };
  }

  /** The numbers of the `index`-th stretch from the end, in order, or null past the start. */
  stretch(index: number): readonly NumberToken[] | null {
    const read = this.numbers[index];
    if (read !== undefined) return read;
    const bounds = this.bounds(index);
    if (bounds === null) return null;
    const tokens = numbersBetween(this.text, bounds.start, bounds.end);
    this.numbers[index] = tokens;
    return tokens;
  }

  /**
   * Whether the `index`-th stretch, with the characters that lead to the digits on either side
   * of it, holds anything but digits, points, "%" and spaces: a word, a dash, a bracket, a sign.
   * Where it holds none, no figure in it has a spread written after it ("± 3", "(sd 2)"), and
   * no two figures in it or beside it form a range ("30 to 50", "[30, 50]"): the readings of
   * those pass over its numbers unread.
   */
  holdsWords(index: number): boolean {
    let worded = this.worded[index];
    if (worded === undefined) {
      worded = this.readWords(index);
      this.worded[index] = worded;
    }
    return worded;
  }

  private readWords(index: number): boolean {
    const bounds = this.bounds(index);
    if (bounds === null) return false;
    const { text } = this;
    let from = bounds.start;
    while (from > 0 && isBare(text.charCodeAt(from - 1)) && !isDigit(text.charCodeAt(from - 1))) {
      from--;
    }
    if (from > 0 && !isDigit(text.charCodeAt(from - 1))) return true;
    let to = bounds.end;
    while (to < text.length && isBare(text.charCodeAt(to)) && !isDigit(text.charCodeAt(to))) to++;
    if (to < text.length && !isDigit(text.charCodeAt(to))) return true;
    return NOT_BARE.test(text.slice(from, bounds.end));
  }

  /** The numbers from the last backwards; with `wordedOnly`, of stretches that hold words. */
  *backwards(wordedOnly = false): Generator<NumberToken> {
    for (let index = 0; ; index++) {
      if (wordedOnly && this.bounds(index) !== null && !this.holdsWords(index)) continue;
      const tokens = this.stretch(index);
      if (tokens === null) return;
      for (let at = tokens.length - 1; at >= 0; at--) yield tokens[at] as NumberToken;
    }
  }
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** A digit, a point, "%" or a space. */
function isBare(code: number): boolean {
  return isDigit(code) || code === 46 || code === 37 || isSpaceCode(code);
}

/** The numbers of `text` from its end; shared by the readings of one reply. */
export const numbersFromEnd = keepingLast((text: string) => new NumbersFromEnd(text));
