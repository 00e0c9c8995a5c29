import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readAnswer } from "../../src/forecast/index.js";

/*
 * A value the reply compares its own with, written last with its source or its time ("I
 * expect around $1.87tn, versus $1.8 trillion last year"), is not the last figure of the
 * reply's own: it is never read as the answer.
 */

const QUESTION = "What will X be in trillions of dollars?";
const TAILS = ["last year", "in 2023", "according to analysts", "on Polymarket", "historically"];

describe("a past or quoted value written last", () => {
  it("is never read as the value", async () => {
    await fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 999 }),
        fc.integer({ min: 100, max: 999 }),
        fc.constantFrom(...TAILS),
        fc.constantFrom("versus", "compared with", "up from"),
        (own, past, tail, joiner) => {
          fc.pre(own !== past);
          const reply = `I expect around $${own / 100}tn, ${joiner} $${past / 100} trillion ${tail}.`;
          const { answer } = readAnswer("continuous_value_only", reply, null, QUESTION);
          expect([own / 100, null]).toContain(
            answer === null ? null : (answer as { value: number }).value,
          );
        },
      ),
      { numRuns: 1000 },
    );
  });
});
