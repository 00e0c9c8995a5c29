import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readAnswer } from "../../src/forecast/index.js";
import { reasoning, wholePercent } from "./generators/reasoning.js";

/*
 * A labelled figure of an earlier forecast written after the answer ("Previous forecast: 25%",
 * "Earlier estimate: 0.25", "Last week's probability: 20%") is a reference point: it never
 * replaces the probability the reply states.
 */

const EARLIER = [
  "Previous forecast",
  "Earlier estimate",
  "Original forecast",
  "Last week's probability",
  "Old estimate",
  "Draft probability",
];

describe("an earlier forecast's label after the answer", () => {
  it("never replaces the probability", async () => {
    await fc.assert(
      fc.property(
        reasoning(),
        fc.constantFrom(...EARLIER),
        fc.constantFrom("\n", ". ", "\n\n"),
        wholePercent,
        wholePercent,
        (why, earlier, gap, p, q) => {
          fc.pre(p !== q);
          const reply = `${why}\n\nProbability: ${p}%${gap}${earlier}: ${q}%`;
          const { answer } = readAnswer("binary", reply, null);
          expect([p / 100, null]).toContain(
            answer === null ? null : (answer as { probability: number }).probability,
          );
        },
      ),
      { numRuns: 1000 },
    );
  });
});
