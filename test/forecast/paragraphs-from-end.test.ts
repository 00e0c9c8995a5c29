import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { paragraphBefore } from "../../src/forecast/extract/paragraphs-from-end.js";

// What the reading from the end stands for: the paragraphs a split at blank lines leaves.
function paragraphsBySplit(text: string): string[] {
  return text
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== "");
}

function paragraphsFromEnd(text: string): string[] {
  const paragraphs: string[] = [];
  for (
    let span = paragraphBefore(text, text.length);
    span !== null;
    span = paragraphBefore(text, span.start)
  ) {
    paragraphs.unshift(text.slice(span.start, span.end));
  }
  return paragraphs;
}

const CHARACTERS = [..."ab. \t\n\r\u00a0\u2028"];
const texts = fc.string({ unit: fc.constantFrom(...CHARACTERS), maxLength: 40 });

describe("paragraphs read from the end", () => {
  it("are the split's paragraphs, trimmed, empty ones dropped", async () => {
    await fc.assert(
      fc.property(texts, (text) => {
        expect(paragraphsFromEnd(text)).toEqual(paragraphsBySplit(text));
      }),
      { numRuns: 20_000 },
    );
  });

  it("part at a blank line, not at a single line break", () => {
    expect(paragraphsFromEnd("  So:\nSpain\n \n\t**France**\n")).toEqual([
      "So:\nSpain",
      "**France**",
    ]);
  });
});
