import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readAnswer } from "../../src/forecast/index.js";

/*
 * A revision is the reply changing its own figure. A quantity of the world changing, written
 * with the same verbs ("polls moved from 41% to 37%", "the bank cut rates from 5% to 4.5%"),
 * is evidence, and must never replace the answer the reply states.
 */

const SUBJECTS = [
  "Polling averages",
  "The central bank",
  "Unemployment",
  "Turnout in the marginals",
  "The index",
  "Support for the bill",
  "Their vote share",
  "Analysts",
  "The market",
];
const VERBS = [
  "moved",
  "rose",
  "went",
  "shifted",
  "cut rates",
  "lowered its target",
  "raised the cap",
  "revised its estimate",
  "updated the figure",
  "increased",
  "decreased",
  "nudged",
  "adjusted",
];
const TAILS = ["", " over the last quarter", " in March", " since 2019", ", a notable change"];

const percent = fc.integer({ min: 1, max: 99 });
const worldChange = fc.oneof(
  fc
    .tuple(fc.constantFrom(...SUBJECTS), fc.constantFrom(...VERBS), percent, percent)
    .chain(([subject, verb, from, to]) =>
      fc.constantFrom(...TAILS).map((tail) => `${subject} ${verb} from ${from}% to ${to}%${tail}.`),
    ),
  fc
    .tuple(fc.constantFrom(...SUBJECTS), percent, percent)
    .map(([subject, from, to]) => `${subject} stood at ${from}% last year, and now ${to}%.`),
);

const OWN_CHANGES = [
  (from: number, to: number) => `On reflection, I'm raising my forecast from ${from}% to ${to}%.`,
  (_: number, to: number) => `Revising to ${to}%.`,
  (_: number, to: number) => `Update: I revise to ${to}%.`,
  (from: number, to: number) => `We move it from ${from}% to ${to}%.`,
  (from: number, to: number) => `Initially ${from}%, now ${to}%.`,
  (from: number, to: number) => `So I'd lower this from ${from}% to ${to}%.`,
];

describe("a change of a quantity of the world", () => {
  it("never replaces the probability the reply states", async () => {
    await fc.assert(
      fc.property(fc.array(worldChange, { minLength: 1, maxLength: 6 }), (changes) => {
        const reply = `Probability: 35%\n\n${changes.join(" ")}`;
        expect(readAnswer("binary", reply, null).answer).toEqual({
          type: "binary",
          probability: 0.35,
        });
      }),
      { numRuns: 300 },
    );
  });

  it("never replaces the value the reply states", async () => {
    await fc.assert(
      fc.property(fc.array(worldChange, { minLength: 1, maxLength: 6 }), (changes) => {
        const reply = `Final estimate: 42\n\n${changes.join("\n")}`;
        expect(readAnswer("continuous_value_only", reply, null).answer).toEqual({
          type: "continuous_value_only",
          value: 42,
        });
      }),
      { numRuns: 300 },
    );
  });
});

describe("a change of the reply's own figure", () => {
  it("is the answer, after the reasoning and its figures", async () => {
    await fc.assert(
      fc.property(
        fc.array(worldChange, { maxLength: 4 }),
        fc.constantFrom(...OWN_CHANGES),
        percent,
        percent,
        (changes, own, from, to) => {
          const reply = `${changes.join(" ")}\n\n${own(from, to)}`;
          expect(readAnswer("binary", reply, null)).toEqual({
            answer: { type: "binary", probability: to / 100 },
            rule: "revision",
          });
        },
      ),
      { numRuns: 300 },
    );
  });
});
