import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sentenceStartBefore } from "../../src/forecast/extract/sentence-starts.js";

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

/** Every start, from the last back: each search goes on from before the last found. */
function startsFromEnd(text: string): [number, number][] {
  const starts: [number, number][] = [];
  for (
    let start = sentenceStartBefore(text, text.length - 1);
    start !== null;
    start = sentenceStartBefore(text, start.end - 1)
  ) {
    starts.push([start.index, start.end]);
  }
  return starts;
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
