import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readAnswer } from "../../src/forecast/index.js";
import { reasoning, wholePercent } from "./generators/reasoning.js";

/*
 * An answer tag followed by a change of its figure ("<answer>0.30</answer> … Update: I revise
 * to 40%", "Actually, make that 25%") is no longer the reply's last word: the tag's figure is
 * never read as the answer then. A tag that is restated, or followed by evidence, stands.
 */

const CHANGES = [
  (p: number) => `Update: I revise to ${p}%.`,
  (p: number) => `On reflection, I'm raising my forecast to ${p}%.`,
  (p: number) => `Actually, make that ${p}%.`,
  (p: number) => `Actually closer to ${p}%.`,
];

describe("a change after the answer tag", () => {
  it("is never read as the tag's figure", async () => {
    await fc.assert(
      fc.property(
        reasoning(),
        fc.constantFrom(...CHANGES),
        wholePercent,
        wholePercent,
        fc.boolean(),
        (why, change, tagged, changed, long) => {
          fc.pre(tagged !== changed);
          const filler = long ? `${why}\n\n`.repeat(Math.ceil(9000 / (why.length + 2))) : why;
          const reply = `<answer>${(tagged / 100).toFixed(2)}</answer>\n\n${filler}\n\n${change(changed)}`;
          const { answer } = readAnswer("binary", reply, null);
          expect(answer).toBeNull();
        },
      ),
      { numRuns: 800 },
    );
  });

  it("leaves the tag standing when only evidence follows", () => {
    const reply = "<answer>0.30</answer>\n\nPolls moved from 41% to 37% this week.";
    expect(readAnswer("binary", reply, null)).toEqual({
      answer: { type: "binary", probability: 0.3 },
      rule: "answer_tag",
    });
  });

  it("leaves a value's tag standing when the change is the same figure", () => {
    const reply = "<answer>1250</answer>\n\nRevising to 1250 after the March data.";
    expect(readAnswer("continuous_value_only", reply, null).answer).toEqual({
      type: "continuous_value_only",
      value: 1250,
    });
  });
});
