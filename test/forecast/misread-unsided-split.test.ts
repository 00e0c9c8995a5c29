import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readAnswer } from "../../src/forecast/index.js";

/*
 * A split of two options for one side, then another split of the reply's own that names no
 * side ("60/40 in favour of the Democrats. Update: 50/50."), does not settle which is the
 * answer: the first is never read.
 */

const OPTIONS = { A: "Democrats", B: "Republicans" };
const LATER = [
  (a: number, b: number) => `Update: ${a}/${b}.`,
  (a: number, b: number) => `On reflection, more like ${a}-${b}.`,
  (a: number, b: number) => `Actually I'd call it ${a}:${b}`,
];

describe("a later split that names no side", () => {
  it("leaves the earlier one unread", async () => {
    await fc.assert(
      fc.property(
        fc.integer({ min: 51, max: 90 }),
        fc.integer({ min: 10, max: 90 }),
        fc.constantFrom(...LATER),
        fc.constantFrom("Democrats", "Republicans"),
        (first, second, later, side) => {
          fc.pre(first !== second && first !== 100 - second);
          const reply = `${first}/${100 - first} in favour of the ${side}. ${later(second, 100 - second)}`;
          const { answer } = readAnswer("multiple_choice", reply, OPTIONS);
          expect(answer).toBeNull();
        },
      ),
      { numRuns: 800 },
    );
  });

  it("reads a split for one side at the end of its sentence", () => {
    expect(
      readAnswer("multiple_choice", "60/40 in favour of the Democrats.", OPTIONS).answer,
    ).toEqual({
      type: "multiple_choice",
      probabilities: { A: 0.6, B: 0.4 },
    });
  });
});
