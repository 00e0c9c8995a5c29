import { isValidUtf8 } from "./utf8-validity.js";
import type { Vocabulary } from "./vocabulary.js";

/**
 * The rank gpt-tokenizer gives a byte range while merging, quirk included, so that token ids
 * match it exactly: it turns a range that is valid UTF-8 into a string with a TextDecoder that
 * drops a leading byte-order mark, and looks that string up among the tokens it stores as
 * strings, none of which starts with a byte-order mark. So a valid range starting with
 * EF BB BF takes the rank of the rest (none if the rest is empty or starts with one too), and
 * tokens such as "\uFEFF" alone are never formed by a merge.
 */
export function mergeRank(
  vocabulary: Vocabulary,
  bytes: Uint8Array,
  start: number,
  end: number,
): number {
  if (!startsWithByteOrderMark(bytes, start, end) || !isValidUtf8(bytes, start, end)) {
    return vocabulary.rankOf(bytes, start, end);
  }
  const rest = start + 3;
  if (rest === end || startsWithByteOrderMark(bytes, rest, end)) return -1;
  return vocabulary.rankOf(bytes, rest, end);
}

function startsWithByteOrderMark(bytes: Uint8Array, start: number, end: number): boolean {
  return (
    end - start >= 3 &&
    bytes[start] === 0xef &&
    bytes[start + 1] === 0xbb &&
    bytes[start + 2] === 0xbf
  );
}
