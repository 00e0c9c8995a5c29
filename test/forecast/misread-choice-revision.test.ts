import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readAnswer } from "../../src/forecast/index.js";
import { reasoning } from "./generators/reasoning.js";

/*
 * Option lines followed by a paragraph that changes some of their figures ("On reflection I'd
 * move Anthropic up to 30% and OpenAI down to 25%") no longer state the answer, and the
 * changed split is not written whole: the reply has no answer rather than the lines' old one.
 */

const OPTIONS = { A: "Google DeepMind", B: "OpenAI", C: "Anthropic", D: "Someone else" };
const NAMES = ["Anthropic", "OpenAI", "Google", "C", "B"];

const lines = fc
  .tuple(
    fc.integer({ min: 5, max: 40 }),
    fc.integer({ min: 5, max: 40 }),
    fc.integer({ min: 5, max: 15 }),
  )
  .map(([a, b, d]) => [a, b, 100 - a - b - d, d] as const);

const REVISIONS = [
  (name: string, to: number) => `On reflection I'd move ${name} up to ${to}%.`,
  (name: string, to: number) => `Update: I'm lowering ${name} to ${to}% and spreading the rest.`,
  (name: string, to: number) => `Having thought again, I'd revise ${name} to ${to}%.`,
];

describe("option lines changed afterwards", () => {
  it("are not read as the answer", async () => {
    await fc.assert(
      fc.property(
        reasoning(),
        lines,
        fc.constantFrom(...REVISIONS),
        fc.constantFrom(...NAMES),
        fc.integer({ min: 1, max: 60 }),
        (why, [a, b, c, d], revision, name, to) => {
          const reply = `${why}\n\nA: ${a}%\nB: ${b}%\nC: ${c}%\nD: ${d}%\n\n${revision(name, to)}`;
          expect(readAnswer("multiple_choice", reply, OPTIONS).answer).toBeNull();
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("are read when the change is written as the lines themselves", () => {
    const reply =
      "A: 40%, B: 35%, C: 20%, D: 5%\n\nOn reflection I revise to: A: 35%, B: 30%, C: 30%, D: 5%.";
    expect(readAnswer("multiple_choice", reply, OPTIONS).answer).toEqual({
      type: "multiple_choice",
      probabilities: { A: 0.35, B: 0.3, C: 0.3, D: 0.05 },
    });
  });

  it("are read when a quantity of the world changes after them", () => {
    const reply = "A: 40%\nB: 35%\nC: 20%\nD: 5%\n\nOpenAI's odds moved from 30% to 35% this week.";
    expect(readAnswer("multiple_choice", reply, OPTIONS).answer).toEqual({
      type: "multiple_choice",
      probabilities: { A: 0.4, B: 0.35, C: 0.2, D: 0.05 },
    });
  });
});
