import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readAnswer } from "../../src/forecast/index.js";
import { reasoning, wholePercent } from "./generators/reasoning.js";

/*
 * A figure the reply gives the "no" side alone ("NO: 80%", "I'd put 80% on no", "I lean NO
 * at 80%", "I'm 80% confident the answer is no") is the chance of "no": it is never read as
 * the chance of "yes". The chance of "yes" is its complement or, where the reply says
 * nothing more, unread.
 */

const NO_SIDES = [
  (p: number) => `NO: ${p}%`,
  (p: number) => `I assign ${p}% to NO.`,
  (p: number) => `No — ${p}%`,
  (p: number) => `${p}% NO`,
  (p: number) => `I lean NO at ${p}%.`,
  (p: number) => `The answer is NO with ${p}% confidence.`,
  (p: number) => `I'm ${p}% confident the answer is no.`,
  (p: number) => `${p}% chance of no.`,
  (p: number) => `I'd put ${p}% on no.`,
  (p: number) => `My forecast: NO (${p}%).`,
];

describe("the chance of no", () => {
  it("is never read as the chance of yes", async () => {
    await fc.assert(
      fc.property(reasoning(), fc.constantFrom(...NO_SIDES), wholePercent, (why, side, p) => {
        fc.pre(p !== 50);
        const { answer } = readAnswer("binary", `${why}\n\n${side(p)}`, null);
        expect([(100 - p) / 100, null]).toContain(
          answer === null ? null : (answer as { probability: number }).probability,
        );
      }),
      { numRuns: 1500 },
    );
  });

  it("leaves the chance of yes stated beside it", () => {
    for (const reply of ["Yes: 20%\nNo: 80%", "Probability of NO: 80%", "No: 80%, so yes: 20%."]) {
      expect(readAnswer("binary", reply, null).answer).toEqual({
        type: "binary",
        probability: 0.2,
      });
    }
  });

  it("is not a figure after 'no' as a negation", () => {
    const reply = "There is no deal yet. Probability: 30%.";
    expect(readAnswer("binary", reply, null).answer).toEqual({ type: "binary", probability: 0.3 });
  });
});

describe("a sum written after the label", () => {
  it("is not read as its first term", () => {
    const { answer } = readAnswer("binary", "P(YES) = 1 - 0.8 = 0.2", null);
    expect(answer === null || (answer.type === "binary" && answer.probability === 0.2)).toBe(true);
  });
});
