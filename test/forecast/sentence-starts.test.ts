import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sentenceStartsFromEnd } from "../../src/forecast/extract/sentence-starts.js";

// What the scan from the end stands for: the start of the text, then each break after it.
const TEXT_START = /^(?=\S)/;
const SENTENCE_START = /(?:\n|[.!?;:][ \t]+)(?=\S)/g;

function startsByPattern(text: string): [number, number][] {
  const first = TEXT_START.exec(text);
  const breaks = [...text.matchAll(SENTENCE_START)].filter(
    (match) => first === null || match.index >= 1,
  );
  return [...(first === null ? [] : [first]), ...breaks].map((match) => [
    match.index,
    match.index + match[0].length,
  ]);
}

const CHARACTERS = [...".!?:;, \t\n\r\u00a0\u2028a3"];
const texts = fc.string({ unit: fc.constantFrom(...CHARACTERS), maxLength: 40 });

function startsFromEnd(text: string): [number, number][] {
  return [...sentenceStartsFromEnd(text)].map(({ index, end }) => [index, end]);
}

describe("sentence starts read from the end", () => {
  it("are the pattern's matches, last first", async () => {
    await fc.assert(
      fc.property(texts, (text) => {
        expect(startsFromEnd(text).reverse()).toEqual(startsByPattern(text));
      }),
      { numRuns: 20_000 },
    );
  });

  it("finds the start of the text, a line and a clause after punctuation", () => {
    expect(startsFromEnd("So 30%.\nMaybe: 35%")).toEqual([
      [13, 15],
      [7, 8],
      [0, 0],
    ]);
  });
});
