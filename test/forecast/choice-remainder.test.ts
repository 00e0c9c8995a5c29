import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readAnswer } from "../../src/forecast/extract/index.js";

const OPTIONS = { A: "Democrats", B: "Republicans", C: "Independents" };

/**
 * Figures for all options but one that add up to a whole within rounding: the option left out
 * has the rest. Normalising them instead would give it nothing and move the rest to the others.
 */
describe("the one option a reply leaves out", () => {
  it("gets what the stated figures leave of the whole", () => {
    fc.assert(
      fc.property(fc.integer({ min: 9_800, max: 9_999 }), fc.boolean(), (hundredths, first) => {
        const stated = hundredths / 100;
        const [named, other] = first ? ["A", "B"] : ["B", "A"];
        const options = { A: OPTIONS.A, B: OPTIONS.B };
        const reply = `${options[named as "A" | "B"]}: ${stated}%`;
        const reading = readAnswer("multiple_choice", reply, options);
        expect(reading.answer).toEqual({
          type: "multiple_choice",
          probabilities: {
            [named as string]: stated / 100,
            [other as string]: Math.round((1 - stated / 100) * 1e12) / 1e12,
          },
        });
      }),
    );
  });

  it("is not guessed when two options are left out", () => {
    const reading = readAnswer("multiple_choice", "Democrats: 99%", OPTIONS);
    expect(reading.answer).toEqual({
      type: "multiple_choice",
      probabilities: { A: 1, B: 0, C: 0 },
    });
  });
});
