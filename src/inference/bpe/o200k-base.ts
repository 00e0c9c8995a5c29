import { O200K_TOKEN_SPLIT_REGEX } from "gpt-tokenizer/encodingParams/constants";
import { BytePairMerger } from "./byte-pair-merge.js";
import { o200kVocabulary } from "./o200k-vocabulary.js";
import { PieceBytes } from "./piece-bytes.js";

/*
 * o200k_base byte-pair encoding with the token ids gpt-tokenizer gives for
 * `encode(text, { disallowedSpecial: new Set() })`: special-token text such as <|endoftext|> is
 * encoded as the plain text it is, never as a special token and never an error.
 */

/**
 * The pre-tokenizer: gpt-tokenizer's own o200k split pattern (that module holds only the split
 * patterns, no vocabulary). Its pieces tile any text (every character can start one), so the
 * sticky flag finds the very pieces a global search would, and `test` finds them without
 * building a match array for each; a gap would stop the search short and throw.
 */
const PIECES = new RegExp(O200K_TOKEN_SPLIT_REGEX.source, "guy");

const BYTE_ORDER_MARK = 0xfeff;

const piece = new PieceBytes();
const merger = new BytePairMerger();
/** Non-fatal, so a cut inside a character decodes to U+FFFD; a leading U+FEFF is kept. */
const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });

export function encode(text: string): number[] {
  const tokens: number[] = [];
  tokenize(text, tokens);
  return tokens;
}

export function countTokens(text: string): number {
  return tokenize(text, undefined);
}

/** The text of `tokens`; bytes that end inside a character decode to U+FFFD. */
export function decode(tokens: readonly number[]): string {
  const vocabulary = o200kVocabulary();
  let length = 0;
  for (const token of tokens) {
    if (!vocabulary.has(token)) throw new RangeError(`Token ${token} is not in o200k_base`);
    length += vocabulary.tokenLength(token);
  }
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const token of tokens) at = vocabulary.copyToken(token, bytes, at);
  return utf8.decode(bytes);
}

/** Counts the tokens of `text`, appending them to `into` when given. */
function tokenize(text: string, into: number[] | undefined): number {
  const vocabulary = o200kVocabulary();
  let count = 0;
  PIECES.lastIndex = 0;
  for (let start = 0; start < text.length; start = PIECES.lastIndex) {
    if (!PIECES.test(text)) throw new Error(`o200k pre-tokenizer found no piece at ${start}`);
    const end = PIECES.lastIndex;
    piece.write(text, start, end);
    // Most pieces are a token whole. gpt-tokenizer looks pieces up as strings, which a piece
    // with a lone surrogate or a leading byte-order mark never matches (see merge-rank.ts).
    const whole =
      piece.wellFormed && text.charCodeAt(start) !== BYTE_ORDER_MARK
        ? vocabulary.rankOf(piece.bytes, 0, piece.length)
        : -1;
    if (whole >= 0) {
      into?.push(whole);
      count++;
      continue;
    }
    const parts = merger.merge(vocabulary, piece.bytes, piece.length);
    if (into !== undefined) {
      for (let part = 0; part < parts; part++) into.push(merger.tokens[part] ?? 0);
    }
    count += parts;
  }
  return count;
}
