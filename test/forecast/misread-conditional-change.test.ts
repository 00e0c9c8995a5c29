import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readAnswer } from "../../src/forecast/index.js";
import { reasoning, wholePercent } from "./generators/reasoning.js";

/*
 * A change the reply would make on a condition ("I'd raise that to 35% if the bill passes
 * committee", "a strong jobs report could move me to 40%") is not a change it makes: the figure
 * it names must never be read as the answer. The earlier figure may still be the answer or no
 * longer be, so the reply reads as the stated figure or as none, never as the conditional one.
 */

const CONDITIONAL_CHANGES = [
  (to: number) => `I'd raise that to ${to}% if the bill clears committee.`,
  (to: number) => `If the polls tighten, I'd update to ${to}%.`,
  (to: number) => `Should the Fed cut rates, I would revise to ${to}%.`,
  (to: number) => `A strong jobs report could move me to ${to}%.`,
  (to: number) => `I could see myself going to ${to}% on news of a deal.`,
  (to: number) => `Unless turnout collapses, I won't lower it to ${to}%.`,
  (to: number) => `I might bump it to ${to}% were the vote to be scheduled.`,
];
const STATED = [
  (p: number) => `Probability: ${p}%`,
  (p: number) => `Final answer: ${p}%.`,
  (p: number) => `I'd put this at ${p}%.`,
  (p: number) => `On reflection, I'm raising my forecast to ${p}%.`,
];

const VALUE_CHANGES = [
  (to: number) => `I'd revise to ${to} if the March figures disappoint.`,
  (to: number) => `A recession could move my estimate to ${to}.`,
];

describe("a change made on a condition", () => {
  it("is never read as the probability", async () => {
    await fc.assert(
      fc.property(
        reasoning(),
        fc.constantFrom(...STATED),
        fc.constantFrom(...CONDITIONAL_CHANGES),
        wholePercent,
        wholePercent,
        (why, stated, change, p, to) => {
          fc.pre(p !== to);
          const reply = `${why}\n\n${stated(p)} ${change(to)}`;
          const { answer } = readAnswer("binary", reply, null);
          expect([p / 100, null]).toContain(
            answer === null ? null : (answer as { probability: number }).probability,
          );
        },
      ),
      { numRuns: 1500 },
    );
  });

  it("is never read as the value", async () => {
    await fc.assert(
      fc.property(
        reasoning(),
        fc.constantFrom(...VALUE_CHANGES),
        fc.integer({ min: 10, max: 5000 }),
        fc.integer({ min: 10, max: 5000 }),
        (why, change, value, to) => {
          fc.pre(value !== to);
          const reply = `${why}\n\nForecast: ${value}. ${change(to)}`;
          const { answer } = readAnswer("continuous_value_only", reply, null);
          expect([value, null]).toContain(
            answer === null ? null : (answer as { value: number }).value,
          );
        },
      ),
      { numRuns: 500 },
    );
  });

  it("does not undo a change made without one", () => {
    const reply = "Probability: 30%. Even if the vote slips, I'm raising my forecast to 35%.";
    expect(readAnswer("binary", reply, null)).toEqual({
      answer: { type: "binary", probability: 0.35 },
      rule: "revision",
    });
  });
});
