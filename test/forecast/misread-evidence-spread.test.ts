import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readAnswer } from "../../src/forecast/index.js";
import { reasoning } from "./generators/reasoning.js";

/*
 * A figure with its spread that the reply quotes as evidence ("Last year it was 8,994 with a
 * standard deviation of 1,124") is not the answer, and someone else's mean written after the
 * reply's own "50, give or take 4" ("The Fed's central estimate is 4,527") does not hide it.
 */

const STATEMENTS = [
  (m: number, s: number) => `My estimate: ${m}, give or take ${s} (one standard deviation).`,
  (m: number, s: number) => `Final answer: ${m} ± ${s}`,
  (m: number, s: number) => `Mean: ${m}\nSD: ${s}`,
];
const EVIDENCE = [
  (w: number) => `Last year it was ${w} with a standard deviation of ${Math.max(1, w >> 3)}.`,
  (w: number) => `Historically the total averaged ${w} ± ${Math.max(1, w >> 4)}.`,
  (w: number) => `The Fed's central estimate is ${w}.`,
];

describe("a spread quoted as evidence", () => {
  it("never replaces the reply's mean and spread", async () => {
    await fc.assert(
      fc.property(
        reasoning(),
        fc.constantFrom(...STATEMENTS),
        fc.constantFrom(...EVIDENCE),
        fc.integer({ min: 50, max: 9000 }),
        fc.integer({ min: 2, max: 40 }),
        fc.integer({ min: 50, max: 9000 }),
        (why, statement, evidence, mean, sd, theirs) => {
          fc.pre(mean !== theirs);
          const reply = `${why}\n\n${statement(mean, sd)}\n\n${evidence(theirs)}`;
          const { answer } = readAnswer("continuous", reply, null);
          if (answer !== null) {
            expect(answer).toEqual({ type: "continuous", mean, standardDeviation: sd });
          }
        },
      ),
      { numRuns: 1500 },
    );
  });

  it("is still read when the reply states it as its own", () => {
    const reply = "Given the polls, my estimate is 45 ± 3.";
    expect(readAnswer("continuous", reply, null).answer).toEqual({
      type: "continuous",
      mean: 45,
      standardDeviation: 3,
    });
  });
});
