import { countTokens, encode } from "./bpe/o200k-base.js";

/**
 * Byte-pair encoding costs more than linear time in the length of one pre-tokenizer piece (a run
 * with no space; n log n in bpe/, quadratic in common encoders, where 50 kB of one letter took
 * seconds), so text is encoded in segments of at most this many characters, which keeps every
 * piece short and the work linear.
 * Merges never cross a piece boundary, so a cut where a piece starts changes nothing; only
 * pieces longer than a segment are cut inside, and those count a token or so more per cut.
 */
const SEGMENT_CHARACTERS = 64;

const SPACE = 0x20;
const TAB = 0x09;

function isAsciiWhitespace(code: number): boolean {
  return code === SPACE || (code >= TAB && code <= 0x0d);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isAsciiLetter(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

const APOSTROPHE = 0x27;

/**
 * Whether o200k's pre-tokenizer surely starts a piece at `at`: at the first space or tab after
 * a non-space (a following word takes the run's last space, but the run's own piece starts
 * there), or at an ASCII digit or punctuation mark right after a letter (letters only ever join
 * letters, and an apostrophe may continue a contraction). Newlines are left alone: `.\n\n` is
 * one piece.
 */
function startsPiece(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  const previous = text.charCodeAt(at - 1);
  if (code === SPACE || code === TAB) return !isAsciiWhitespace(previous);
  return (
    code > SPACE &&
    code < 0x7f &&
    code !== APOSTROPHE &&
    !isAsciiLetter(code) &&
    isAsciiLetter(previous)
  );
}

/**
 * Where the segment starting at `start` ends: at the last piece start within reach, else after
 * SEGMENT_CHARACTERS characters, never between the two halves of a surrogate pair.
 */
export function segmentEnd(text: string, start: number, limit: number): number {
  const reach = start + SEGMENT_CHARACTERS;
  if (reach >= limit) return limit;
  for (let at = reach; at > start; at--) {
    if (startsPiece(text, at)) return at;
  }
  return characterBoundary(text, reach);
}

/** `at`, or one before it when `at` would split a surrogate pair. */
export function characterBoundary(text: string, at: number): number {
  return at > 0 && isHighSurrogate(text.charCodeAt(at - 1)) ? at - 1 : at;
}

/** Moves `at` forward to the next piece start within one segment, so a sample cuts no word. */
export function alignToPiece(text: string, at: number, limit: number): number {
  const reach = Math.min(limit, at + SEGMENT_CHARACTERS);
  for (let position = at; position < reach; position++) {
    if (startsPiece(text, position)) return position;
  }
  return at > 0 && isHighSurrogate(text.charCodeAt(at - 1)) ? at + 1 : at;
}

/** The exact token count of `text` from `start` to `end`, segment by segment. */
export function countSpanTokens(text: string, start: number, end: number): number {
  let tokens = 0;
  for (let from = start; from < end; ) {
    const to = segmentEnd(text, from, end);
    tokens += countTokens(text.slice(from, to));
    from = to;
  }
  return tokens;
}

/** The tokens of one segment of `text`. */
export function encodeSegment(text: string, start: number, end: number): number[] {
  return encode(text.slice(start, end));
}
