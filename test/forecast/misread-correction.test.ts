import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readAnswer } from "../../src/forecast/index.js";
import { reasoning, wholePercent } from "./generators/reasoning.js";

/*
 * A reply that corrects the figure it just wrote ("Probability: 30%. Actually, 25%.", "On
 * second thought, make that 25%", "Edit: 25%") commits to the correction; the first figure is
 * never the answer. A figure after "actually" that is a quantity ("Actually, 40% of voters…")
 * corrects nothing.
 */

const FIRST = [
  (p: number) => `Probability: ${p}%.`,
  (p: number) => `I'll go with ${p}%...`,
  (p: number) => `My forecast is ${p}%.`,
];
const CORRECTIONS = [
  (p: number) => `Actually, ${p}%.`,
  (p: number) => `actually ${p}%`,
  (p: number) => `On second thought, ${p}%.`,
  (p: number) => `Actually, make that ${p}%.`,
  (p: number) => `Correction: ${p}%.`,
  (p: number) => `\n\nEdit: ${p}%`,
  (p: number) => `No, wait: ${p}% instead.`,
  (p: number) => `Scratch that, I'd say ${p}%.`,
  (p: number) => `Actually closer to ${p}%.`,
];

describe("a correction of the figure just written", () => {
  it("is the answer", async () => {
    await fc.assert(
      fc.property(
        reasoning(),
        fc.constantFrom(...FIRST),
        fc.constantFrom(...CORRECTIONS),
        wholePercent,
        wholePercent,
        (why, first, correction, from, to) => {
          fc.pre(from !== to);
          const reply = `${why}\n\n${first(from)} ${correction(to)}`;
          const { answer } = readAnswer("binary", reply, null);
          expect([to / 100, null]).toContain(
            answer === null ? null : (answer as { probability: number }).probability,
          );
        },
      ),
      { numRuns: 1500 },
    );
  });

  it("is the mean of a continuous answer", () => {
    const reply = "Estimate: 50, SD 10. Actually, revise the mean to 55.";
    expect(readAnswer("continuous", reply, null).answer).toEqual({
      type: "continuous",
      mean: 55,
      standardDeviation: 10,
    });
  });

  it("is not a quantity written after 'actually'", () => {
    const reply = "Probability: 25%. Actually, 40% of polled voters remain undecided.";
    expect(readAnswer("binary", reply, null).answer).toEqual({ type: "binary", probability: 0.25 });
  });
});
