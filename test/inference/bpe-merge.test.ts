import { describe, expect, it } from "vitest";
import { BytePairMerger } from "../../src/inference/bpe/byte-pair-merge.js";
import { mergeRank } from "../../src/inference/bpe/merge-rank.js";
import { Vocabulary } from "../../src/inference/bpe/vocabulary.js";
import { randomSource } from "../support/large-texts.js";

const utf8 = new TextEncoder();

/** A vocabulary of every single byte (rank = byte) followed by `merged` from rank 256 on. */
function vocabularyWith(merged: (string | number[])[]): Vocabulary {
  const tokens = [
    ...Array.from({ length: 256 }, (_, byte) => [byte]),
    ...merged.map((token) => (typeof token === "string" ? [...utf8.encode(token)] : token)),
  ];
  const offsets = new Uint32Array(tokens.length + 1);
  tokens.forEach((token, rank) => {
    offsets[rank + 1] = (offsets[rank] ?? 0) + token.length;
  });
  return new Vocabulary({ bytes: Uint8Array.from(tokens.flat()), offsets });
}

function merge(vocabulary: Vocabulary, text: string): number[] {
  const bytes = utf8.encode(text);
  const merger = new BytePairMerger();
  const count = merger.merge(vocabulary, bytes, bytes.length);
  return [...merger.tokens.subarray(0, count)];
}

/** The textbook merge: rescan every pair, join the leftmost of lowest rank, repeat. */
function rescanningMerge(vocabulary: Vocabulary, text: string): number[] {
  const bytes = utf8.encode(text);
  const parts = Array.from(bytes, (_, index) => [index, index + 1] as [number, number]);
  for (;;) {
    let lowest = Number.POSITIVE_INFINITY;
    let at = -1;
    for (let index = 0; index + 1 < parts.length; index++) {
      const rank = vocabulary.rankOf(bytes, parts[index]?.[0] ?? 0, parts[index + 1]?.[1] ?? 0);
      if (rank >= 0 && rank < lowest) {
        lowest = rank;
        at = index;
      }
    }
    if (at < 0) break;
    parts.splice(at, 2, [parts[at]?.[0] ?? 0, parts[at + 1]?.[1] ?? 0]);
  }
  return parts.map(([start, end]) => vocabulary.rankOf(bytes, start, end));
}

function randomWord(random: () => number, length: number): string {
  return Array.from({ length }, () => "abc"[Math.floor(random() * 3)]).join("");
}

describe("vocabulary lookups", () => {
  const vocabulary = vocabularyWith(["ab", "abc", " the"]);

  it("finds a token by any byte range, and nothing for bytes that are no token", () => {
    const bytes = utf8.encode("xx the abcd");
    expect(vocabulary.rankOf(bytes, 2, 6)).toBe(258);
    expect(vocabulary.rankOf(bytes, 7, 10)).toBe(257);
    expect(vocabulary.rankOf(bytes, 7, 9)).toBe(256);
    expect(vocabulary.rankOf(bytes, 8, 10)).toBe(-1);
    expect(vocabulary.rankOf(bytes, 0, 0)).toBe(-1);
    expect(vocabulary.bytePairRank(0x61, 0x62)).toBe(256);
    expect(vocabulary.bytePairRank(0x62, 0x63)).toBe(-1);
  });

  it("refuses a token spelled twice and a byte that is no token", () => {
    expect(() => vocabularyWith(["ab", "ab"])).toThrow(/repeats/);
    // Bytes 0 to 254, each a token: 255 is missing.
    const bytes = Uint8Array.from({ length: 255 }, (_, byte) => byte);
    const offsets = Uint32Array.from({ length: 256 }, (_, rank) => rank);
    expect(() => new Vocabulary({ bytes, offsets })).toThrow(/single byte/);
  });
});

describe("byte-pair merging", () => {
  it("merges the pair of lowest rank first", () => {
    expect(merge(vocabularyWith(["ab", "bc"]), "abc")).toEqual([256, 0x63]);
    expect(merge(vocabularyWith(["bc", "ab"]), "abc")).toEqual([0x61, 256]);
    expect(merge(vocabularyWith(["bc", "ab", "abc"]), "abc")).toEqual([258]);
  });

  it("merges the leftmost of equal pairs first", () => {
    expect(merge(vocabularyWith(["aa"]), "aaa")).toEqual([256, 0x61]);
    expect(merge(vocabularyWith(["aa", "aaaa"]), "aaaaa")).toEqual([257, 0x61]);
  });

  it("leaves bytes that pair with nothing as single-byte tokens", () => {
    expect(merge(vocabularyWith(["ab"]), "xaby")).toEqual([0x78, 256, 0x79]);
    expect(merge(vocabularyWith([]), "é")).toEqual([0xc3, 0xa9]);
  });

  it("merges as rescanning every pair after each merge would, ties and all", () => {
    const random = randomSource(7);
    for (let round = 0; round < 200; round++) {
      // Few letters, so pieces repeat pairs and many of them tie.
      const merged = new Set<string>();
      while (merged.size < 12) merged.add(randomWord(random, 2 + Math.floor(random() * 4)));
      const vocabulary = vocabularyWith([...merged]);
      for (let piece = 0; piece < 10; piece++) {
        const text = randomWord(random, 1 + Math.floor(random() * 40));
        expect(merge(vocabulary, text)).toEqual(rescanningMerge(vocabulary, text));
      }
    }
  });

  it("merges a piece longer than the arrays it keeps", () => {
    const tokens = merge(vocabularyWith(["aa", "aaaa"]), "a".repeat(5_001));
    expect(tokens).toEqual([...Array.from({ length: 1_250 }, () => 257), 0x61]);
    expect(merge(vocabularyWith(["aa"]), "aaa")).toEqual([256, 0x61]);
  });
});

describe("gpt-tokenizer's rank of a merged range", () => {
  const bom = [0xef, 0xbb, 0xbf];
  const vocabulary = vocabularyWith([bom, [...bom, 0x78], [...bom, 0xff], "xy"]);

  it("is the rank of what follows a byte-order mark in valid UTF-8", () => {
    expect(mergeRank(vocabulary, Uint8Array.from([...bom, 0x78]), 0, 4)).toBe(0x78);
    expect(mergeRank(vocabulary, Uint8Array.from([...bom, 0x78, 0x79]), 0, 5)).toBe(259);
    expect(mergeRank(vocabulary, Uint8Array.from([0x20, ...bom]), 1, 4)).toBe(-1);
    expect(mergeRank(vocabulary, Uint8Array.from([...bom, ...bom]), 0, 6)).toBe(-1);
  });

  it("is the plain rank of other ranges", () => {
    expect(mergeRank(vocabulary, Uint8Array.from([...bom, 0xff]), 0, 4)).toBe(258);
    expect(mergeRank(vocabulary, utf8.encode("axy"), 1, 3)).toBe(259);
    expect(mergeRank(vocabulary, utf8.encode("xyz"), 0, 3)).toBe(-1);
  });
});
