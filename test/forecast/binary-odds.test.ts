import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readAnswer } from "../../src/forecast/extract/index.js";

/*
 * Chances written as odds and counts, in digits or words, after reasoning full of other figures
 * (a rate cut "from 4.50% to 4.00%", "48% chance" priced by swaps): the stated odds are the
 * answer, and no figure of the reasoning ever is.
 */
const WORDS = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];
const REASONING = [
  "The central bank has cut twice this year, from 4.50% to 4.00%. Swaps price a 48% chance of another cut.",
  "Regulators in 3 of 4 jurisdictions have cleared the deal; the spread of 8% implies roughly 70% odds.",
  "Turnout was 58.4% in 2019. A 1.6-point rise would clear the 60% threshold.",
  "",
];
const LEADS = [
  "I'd put it at",
  "I'd price it at",
  "Final answer:",
  "My final call:",
  "Odds:",
  "I'd give it",
];

const count = fc.integer({ min: 1, max: 10 });
const written = (n: number) => fc.constantFrom(String(n), WORDS[n - 1] ?? String(n));

function probabilityOf(text: string): number | null {
  const reading = readAnswer("binary", text, null);
  return reading.answer?.type === "binary" ? reading.answer.probability : null;
}

describe("binary odds and counts in digits or words", () => {
  it('"a in b" in any joiner is a / b', () => {
    fc.assert(
      fc.property(
        count,
        count,
        fc.constantFrom(" in ", "-in-", " out of "),
        fc.constantFrom(...REASONING),
        fc.constantFrom(...LEADS),
        (a, extra, joiner, reasoning, lead) => {
          const b = a + extra;
          return fc.assert(
            fc.property(written(a), written(b), (first, second) => {
              const text = `${reasoning}\n\n${lead} ${first}${joiner}${second}.`;
              expect(probabilityOf(text), text).toBeCloseTo(a / b, 6);
            }),
            { numRuns: 4 },
          );
        },
      ),
      { numRuns: 150 },
    );
  });

  it('"a to b against" is b / (a + b); "on" and "in favour" are a / (a + b)', () => {
    fc.assert(
      fc.property(
        count,
        count,
        fc.constantFrom(" to ", ":", "/", "-to-"),
        fc.constantFrom("against", "on", "in favour", "in favor"),
        fc.constantFrom(...REASONING),
        fc.constantFrom(...LEADS),
        (a, b, joiner, side, reasoning, lead) => {
          const text = `${reasoning}\n\n${lead} ${a}${joiner}${b} ${side}.`;
          const expected = side === "against" ? b / (a + b) : a / (a + b);
          expect(probabilityOf(text), text).toBeCloseTo(expected, 6);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a revision in the last sentence is read at its new value, not the range's middle", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 98 }),
        fc.integer({ min: 1, max: 98 }),
        fc.boolean(),
        fc.constantFrom(...REASONING),
        (from, to, fraction, reasoning) => {
          fc.pre(from !== to);
          const show = (n: number) => (fraction ? String(n / 100) : `${n}%`);
          const text = `${reasoning}\n\nGoing from ${show(from)} to ${show(to)} on the new information.`;
          expect(probabilityOf(text), text).toBeCloseTo(to / 100, 6);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a revision in the reasoning never beats a later figure of the reply's own", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 99 }), (final) => {
        const text = `${REASONING[0]}\n\nWeighing it all, I'd put this at about ${final / 100}.`;
        expect(probabilityOf(text), text).toBeCloseTo(final / 100, 6);
      }),
      { numRuns: 100 },
    );
  });
});
