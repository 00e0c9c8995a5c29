/** Token byte sequences in rank order: token `r` is `bytes[offsets[r], offsets[r + 1])`. */
export interface TokenBytes {
  readonly bytes: Uint8Array;
  readonly offsets: Uint32Array;
}

const NEWLINE = 0x0a;
const SPACE = 0x20;
const PADDING = 0x3d;
const DIGIT_ZERO = 0x30;

const BASE64_DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const BASE64_VALUES = new Int8Array(256).fill(-1);
for (let value = 0; value < BASE64_DIGITS.length; value++) {
  BASE64_VALUES[BASE64_DIGITS.charCodeAt(value)] = value;
}

/**
 * Parses a tiktoken rank file, one `<base64 bytes> <rank>` line per token, straight into one
 * byte array of the exact size: no string or array per token is ever made. Ranks must run
 * 0, 1, 2, … so that a token's rank is its index; anything else is refused, not mis-ranked.
 */
export function parseTiktokenFile(file: Uint8Array): TokenBytes {
  const size = measure(file);
  const bytes = new Uint8Array(size.bytes);
  const offsets = new Uint32Array(size.tokens + 1);
  let written = 0;
  let rank = 0;
  for (let at = 0; at < file.length; at++) {
    let bits = 0;
    let bitCount = 0;
    for (; file[at] !== SPACE; at++) {
      const code = file[at];
      if (code === PADDING) continue;
      const value = BASE64_VALUES[code ?? 0] ?? -1;
      if (value < 0) throw tiktokenError(rank, "is not base64");
      bits = (bits << 6) | value;
      bitCount += 6;
      if (bitCount >= 8) {
        bitCount -= 8;
        bytes[written++] = bits >>> bitCount;
        bits &= (1 << bitCount) - 1;
      }
    }
    let value = 0;
    for (at++; at < file.length && file[at] !== NEWLINE; at++) {
      value = value * 10 + (file[at] ?? 0) - DIGIT_ZERO;
    }
    if (value !== rank) throw tiktokenError(rank, `has rank ${value}`);
    rank++;
    offsets[rank] = written;
  }
  if (rank !== size.tokens) throw tiktokenError(rank, "is missing");
  if (written !== bytes.length) throw new Error("tiktoken rank file: misplaced base64 padding");
  return { bytes, offsets };
}

/** How many tokens the file lists, and how many bytes they take, found by memchr-fast scans. */
function measure(file: Uint8Array): { tokens: number; bytes: number } {
  let tokens = 0;
  let bytes = 0;
  for (let lineStart = 0; lineStart < file.length; tokens++) {
    const space = file.indexOf(SPACE, lineStart);
    if (space < 0) throw tiktokenError(tokens, "has no rank");
    let digits = space - lineStart;
    while (digits > 0 && file[lineStart + digits - 1] === PADDING) digits--;
    // Each base64 digit holds six bits; bits short of a whole byte are padding.
    bytes += (digits * 6) >>> 3;
    const newline = file.indexOf(NEWLINE, space);
    lineStart = newline < 0 ? file.length : newline + 1;
  }
  return { tokens, bytes };
}

function tiktokenError(rank: number, problem: string): Error {
  return new Error(`tiktoken rank file: the line for rank ${rank} ${problem}`);
}
