import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readAnswer } from "../../src/forecast/index.js";
import { reasoning } from "./generators/reasoning.js";

/*
 * A change to the spread of an estimate or to a bound of it ("I'd raise the standard
 * deviation to 15", "widen my interval to 40–60", "raise the lower bound to 1,100") is not a
 * new value: its figure must never be read as the mean or the value. Nor may the spread stated
 * before it stand as the answer's, so a continuous reply reads as none until it is restated.
 */

const SPREAD_CHANGES = [
  (to: number) => `On reflection I'd raise the standard deviation to ${to}.`,
  (to: number) => `I'd widen the SD to ${to}.`,
  (to: number) => `Update: I'm revising my uncertainty up to ${to}.`,
  (to: number) => `I'd lower the bottom of my interval to ${to}.`,
  (to: number) => `I'm raising the lower bound to ${to}.`,
  (to: number) => `I'd narrow my 90% range to ${to}-${to + 20}.`,
];

const value = fc.integer({ min: 20, max: 5000 });

describe("a change to the spread", () => {
  it("is never read as the value", async () => {
    await fc.assert(
      fc.property(
        reasoning(),
        fc.constantFrom(...SPREAD_CHANGES),
        value,
        value,
        (why, change, v, to) => {
          fc.pre(v !== to);
          const reply = `${why}\n\nForecast: ${v}. ${change(to)}`;
          const { answer } = readAnswer("continuous_value_only", reply, null);
          expect([v, null]).toContain(answer === null ? null : (answer as { value: number }).value);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("leaves neither the mean nor the old spread standing", async () => {
    await fc.assert(
      fc.property(
        reasoning(),
        fc.constantFrom(...SPREAD_CHANGES),
        value,
        fc.integer({ min: 2, max: 19 }),
        (why, change, mean, sd) => {
          const reply = `${why}\n\nMean: ${mean}, SD: ${sd}. ${change(sd + 5)}`;
          expect(readAnswer("continuous", reply, null).answer).toBeNull();
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("does not hide a spread restated after it", () => {
    const reply = "Mean: 50, SD: 10. I'd widen the SD to 15.\n\nFinal answer: mean 50, SD 15.";
    expect(readAnswer("continuous", reply, null).answer).toEqual({
      type: "continuous",
      mean: 50,
      standardDeviation: 15,
    });
  });
});
