import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readAnswer } from "../../src/forecast/index.js";
import { reasoning, wholePercent } from "./generators/reasoning.js";

/*
 * A revision or correction followed by evidence with figures ("Probability: 61%. Actually,
 * make that 60%. The market moved from 3% to 8% this week.") still commits to the revised
 * figure: the label before it is never read in its place. Likewise a spread quoted as evidence
 * after a median and its interval ("Last year it was 1,709 with a standard deviation of 213")
 * is not the answer's spread.
 */

const CHANGES = [
  (from: number, to: number) => `Probability: ${from}%. Actually, make that ${to}%.`,
  (from: number, to: number) => `Probability: ${from}%\n\nUpdate: I revise to ${to}%.`,
  (from: number, to: number) => `I'm raising my forecast from ${from}% to ${to}%.`,
];
const EVIDENCE = [
  (q: number) => `The market moved from ${q}% to ${Math.min(99, q + 5)}% this week.`,
  (q: number) => `Historically about ${q}% of such bills pass.`,
  (q: number) => `Polymarket trades at ${q}%.`,
];

describe("evidence after a revision", () => {
  it("never brings back the figure revised", async () => {
    await fc.assert(
      fc.property(
        reasoning(),
        fc.constantFrom(...CHANGES),
        fc.constantFrom(...EVIDENCE),
        wholePercent,
        wholePercent,
        wholePercent,
        (why, change, evidence, from, to, q) => {
          fc.pre(from !== to);
          const reply = `${why}\n\n${change(from, to)}\n\n${evidence(q)}`;
          const { answer } = readAnswer("binary", reply, null);
          expect([to / 100, null]).toContain(
            answer === null ? null : (answer as { probability: number }).probability,
          );
        },
      ),
      { numRuns: 1500 },
    );
  });

  it("does not replace a median's interval with a quoted spread", async () => {
    await fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 5000 }),
        fc.integer({ min: 5, max: 50 }),
        fc.integer({ min: 100, max: 9000 }),
        (median, half, past) => {
          const reply = `Median: ${median}, 90% CI: ${median - half}–${median + half}\n\nLast year it was ${past} with a standard deviation of ${half * 9}.`;
          const { answer } = readAnswer("continuous", reply, null);
          if (answer !== null && answer.type === "continuous") {
            expect(answer.standardDeviation).toBeCloseTo(half / 1.6449, 1);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
