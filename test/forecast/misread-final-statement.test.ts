import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readAnswer } from "../../src/forecast/index.js";
import { reasoning } from "./generators/reasoning.js";

/*
 * A quantity stated after a final marker ("Bottom line: 135", "In conclusion, I expect about
 * 135", "So my answer is 135", "Final answer: 55 ± 15") is the answer, even when a label with
 * ":" stated another figure before it ("Estimate: 120", "Mean: 50, SD: 10"): the earlier label
 * is never read in its place.
 */

const FIRST_VALUE = [(v: number) => `Estimate: ${v}`, (v: number) => `Forecast: ${v}.`];
const FINAL_VALUE = [
  (v: number) => `Bottom line: ${v}`,
  (v: number) => `In conclusion, I expect about ${v}.`,
  (v: number) => `After adjusting, I land at ${v}.`,
  (v: number) => `So my answer is ${v}.`,
  (v: number) => `Final answer: roughly ${v}.`,
];
const FINAL_SPREAD = [
  (m: number, sd: number) => `Bottom line: ${m} ± ${sd}.`,
  (m: number, sd: number) => `Final answer: mean ${m}, SD ${sd}.`,
  (m: number, sd: number) => `Final forecast: mean of ${m} with a standard deviation of ${sd}.`,
  (m: number, sd: number) => `Posterior: mean ${m}, SD ${sd}.`,
];

const value = fc.integer({ min: 10, max: 9000 });
const spread = fc.integer({ min: 1, max: 9 });

describe("a quantity after a final marker", () => {
  it("beats an earlier label of the value", async () => {
    await fc.assert(
      fc.property(
        reasoning(),
        fc.constantFrom(...FIRST_VALUE),
        fc.constantFrom(...FINAL_VALUE),
        value,
        value,
        (why, first, final, old, v) => {
          fc.pre(old !== v);
          const reply = `${first(old)}\n\n${why}\n\n${final(v)}`;
          const { answer } = readAnswer("continuous_value_only", reply, null);
          expect([v, null]).toContain(answer === null ? null : (answer as { value: number }).value);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it("beats an earlier labelled mean and spread", async () => {
    await fc.assert(
      fc.property(
        reasoning(3),
        fc.constantFrom(...FINAL_SPREAD),
        value,
        spread,
        value,
        spread,
        (why, final, oldMean, oldSd, mean, sd) => {
          fc.pre(oldMean !== mean);
          const reply = `Mean: ${oldMean}, SD: ${oldSd} (prior)\n\n${why}\n\n${final(mean, sd * 3)}`;
          const { answer } = readAnswer("continuous", reply, null);
          if (answer !== null)
            expect(answer).toEqual({ type: "continuous", mean, standardDeviation: sd * 3 });
        },
      ),
      { numRuns: 1500 },
    );
  });

  it("is read for the chance of yes after 'so my answer is'", () => {
    expect(readAnswer("binary", "Probability: 30%\n\nSo my answer is 25%.", null).answer).toEqual({
      type: "binary",
      probability: 0.25,
    });
  });
});
