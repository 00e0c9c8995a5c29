import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type OptionMap, readAnswer } from "../../src/forecast/index.js";

/*
 * A split the reply says it changed from ("Updated from A: 50%, …"), written after its own, is
 * not the answer: the reply's own split, or none, never the earlier one.
 */

const OPTIONS: OptionMap = {
  A: "Labour",
  B: "Conservative",
  C: "Reform UK",
  D: "Liberal Democrats",
};
const OPENINGS = [
  "Updated from",
  "Revised from",
  "Previously",
  "Changed from",
  "Originally",
  "Was",
];

const split = fc
  .tuple(
    fc.integer({ min: 1, max: 60 }),
    fc.integer({ min: 1, max: 30 }),
    fc.integer({ min: 1, max: 9 }),
  )
  .map(([a, b, c]) => [a, b, c, 100 - a - b - c] as const)
  .filter(([, , , d]) => d > 0);

describe("a split the reply changed from, written after its own", () => {
  it("is never read as the answer", async () => {
    await fc.assert(
      fc.property(split, split, fc.constantFrom(...OPENINGS), (own, earlier, opening) => {
        fc.pre(own.join() !== earlier.join());
        const lines = (figures: readonly number[]) =>
          figures.map((figure, index) => `${"ABCD"[index]}: ${figure}%`);
        const reply = `My forecast:\n${lines(own).join("\n")}\n\n${opening}: ${lines(earlier).join(", ")}.`;
        const answer = readAnswer("multiple_choice", reply, OPTIONS).answer;
        const probabilities = answer?.type === "multiple_choice" ? answer.probabilities : null;
        const earlierRead = earlier.every(
          (figure, index) =>
            Math.abs((probabilities?.["ABCD"[index] as string] ?? -1) - figure / 100) < 1e-9,
        );
        expect(earlierRead).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});
