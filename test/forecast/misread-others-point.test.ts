import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readAnswer } from "../../src/forecast/index.js";
import { reasoning, wholePercent } from "./generators/reasoning.js";

/*
 * A point estimate or a chance of "yes" that someone else states ("the Fed's central estimate
 * is 2.1%", "analysts' point estimate is 135", "Polymarket traders put 45% on YES") is
 * evidence, not the reply's own commitment: it never replaces the answer the reply states.
 */

const OTHERS_POINTS = [
  (v: number) => `The Fed's central estimate is ${v}.`,
  (v: number) => `Analysts' point estimate is ${v}.`,
  (v: number) => `Consensus is leaning towards ${v}.`,
  (v: number) => `Goldman's best guess is ${v}.`,
];
const OTHERS_YES = [
  (p: number) => `Polymarket traders put ${p}% on YES.`,
  (p: number) => `We've seen yes at ${p}% on Polymarket.`,
  (p: number) => `The market has ${p}% for "yes".`,
];

describe("someone else's point or chance of yes", () => {
  it("never replaces the value", async () => {
    await fc.assert(
      fc.property(
        reasoning(),
        fc.constantFrom(...OTHERS_POINTS),
        fc.integer({ min: 10, max: 5000 }),
        fc.integer({ min: 10, max: 5000 }),
        (why, point, value, theirs) => {
          fc.pre(value !== theirs);
          const reply = `${why}\n\nForecast: ${value}. ${point(theirs)}`;
          const { answer } = readAnswer("continuous_value_only", reply, null);
          expect([value, null]).toContain(
            answer === null ? null : (answer as { value: number }).value,
          );
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("never replaces the probability", async () => {
    await fc.assert(
      fc.property(
        reasoning(),
        fc.constantFrom(...OTHERS_YES),
        wholePercent,
        wholePercent,
        (why, yes, p, theirs) => {
          fc.pre(p !== theirs);
          const reply = `${why}\n\nProbability: ${p}%. ${yes(theirs)}`;
          const { answer } = readAnswer("binary", reply, null);
          expect([p / 100, null]).toContain(
            answer === null ? null : (answer as { probability: number }).probability,
          );
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("leaves the reply's own point standing", () => {
    const reply = "Polls say 20%. I'd put this in the 15–20% range, leaning towards 17%.";
    expect(readAnswer("binary", reply, null)).toEqual({
      answer: { type: "binary", probability: 0.17 },
      rule: "range_point",
    });
  });
});
