import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ProseFiguresFromEnd } from "../../src/forecast/extract/prose-figures.js";
import { lastRange, plusMinus } from "../../src/forecast/extract/quantity-prose.js";
import { findNumbers } from "../../src/forecast/number-tokens.js";
import { NumbersFromEnd } from "../../src/forecast/numbers-from-end.js";

/*
 * A long reply is read from its end a stretch at a time; the stretches must add up to what a
 * reading of the whole text at once finds, wherever they fall: inside "3 in 10", after "%",
 * beside hedges and signs.
 */
const PIECES = [
  "62%",
  "0.35",
  "3 in 10",
  "1 out of ~4",
  "2 in *5",
  "1,250",
  "$3.2bn",
  "−4",
  "2.5e9",
  "30-40%",
  "15–20%",
  "±3",
  "2027",
  "10th",
  " ",
  "\n",
  "%",
  ":",
  ";",
  "(",
  ")",
  "“",
  "—",
  ".",
  ",",
  "chance",
  " chance",
  "likely",
  "  sure",
  "odds of",
  "probability:",
  "estimate",
  "not",
  "too high",
  "the market gives",
  "I'd put it at",
];

// Several stretches of a few hundred characters each.
const STRETCH = 200;
const longText = fc
  .array(fc.constantFrom(...PIECES), { minLength: 100, maxLength: 600 })
  .map((pieces) => pieces.join(""));

describe("numbers read from the end", () => {
  it("are the numbers of the whole text, in reverse", async () => {
    await fc.assert(
      fc.property(longText, (text) => {
        const fromEnd = [...new NumbersFromEnd(text, STRETCH).backwards()].reverse();
        expect(fromEnd).toEqual(findNumbers(text));
      }),
      { numRuns: 300 },
    );
  });

  it("give the prose figures of the whole text read at once", async () => {
    await fc.assert(
      fc.property(longText, (text) => {
        const byStretches = new ProseFiguresFromEnd(text, new NumbersFromEnd(text, STRETCH));
        const atOnce = new ProseFiguresFromEnd(text, new NumbersFromEnd(text, text.length));
        const read = (figures: ProseFiguresFromEnd) =>
          [...figures.backwards()].map(({ raw, start, end, fraction, attached, evidence }) => ({
            raw,
            start,
            end,
            fraction,
            attached,
            evidence,
          }));
        expect(read(byStretches)).toEqual(read(atOnce));
      }),
      { numRuns: 200 },
    );
  });

  it("pass over no figure stated next to a word of chance", async () => {
    await fc.assert(
      fc.property(longText, (text) => {
        const figures = new ProseFiguresFromEnd(text, new NumbersFromEnd(text, STRETCH));
        const attached = [...figures.backwards()].filter((figure) => figure.attached);
        expect([...figures.attachedBackwards()]).toEqual(attached);
      }),
      { numRuns: 300 },
    );
  });

  it("pass over stretches of bare figures without missing a spread or a range", async () => {
    // With and without "%": a stretch then starts after a bracket or a dash of a range.
    const bare = fc
      .tuple(fc.boolean(), fc.integer({ min: 50, max: 300 }))
      .chain(([percent, length]) =>
        fc.array(fc.constantFrom("12", "3.5", " ", "  ", "\n", ".", ...(percent ? ["40%"] : [])), {
          minLength: length,
          maxLength: length,
        }),
      )
      .map((pieces) => pieces.join(""));
    const worded = fc.constantFrom(
      "42 ± 3",
      "1,750,000 (σ = 150,000)",
      "14.2 seats (SD 2.1)",
      "30 to 50",
      "30–",
      "–50",
      "[30, 50]",
      "between 10 and 20",
      "3.2 ± 0.4 million",
      "$28.0bn ± 2%",
      "(",
      ";",
      "give or take 5",
    );
    const text = fc
      .array(fc.oneof(bare, worded), { minLength: 3, maxLength: 30 })
      .map((parts) => parts.join(""));
    await fc.assert(
      fc.property(text, (reply) => {
        const atOnce = () => new NumbersFromEnd(reply, reply.length);
        const byStretches = () => new NumbersFromEnd(reply, STRETCH);
        expect(plusMinus(reply, byStretches())).toEqual(plusMinus(reply, atOnce()));
        expect(lastRange(reply, byStretches())).toEqual(lastRange(reply, atOnce()));
      }),
      { numRuns: 300 },
    );
  });
});
