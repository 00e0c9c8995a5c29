import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type OptionMap, readAnswer } from "../../src/forecast/index.js";

/*
 * Options whose texts are counts, ranges, bounds or percent ranges ("0–1 landfalls", "4 or
 * more landfalls", "Fewer than 10", "1.50%–1.75%"), labelled in the reply by their figures
 * alone ("0-1: 30%", "4+: 22%", "<10: 5%") or in full, with figures of their own before the
 * probability. Also a split announced
 * mid-line after reasoning ("… last year. Final probabilities: …") and a catch-all named after
 * its figure ("10% on the rest of the field").
 */

interface Row {
  name: string;
  options: OptionMap;
  reply: string;
  expected: Record<string, number> | null;
}

const STORMS: OptionMap = { A: "0–1 landfalls", B: "2–3 landfalls", C: "4 or more landfalls" };
const HIKES: OptionMap = { A: "0 hikes", B: "1 to 2 hikes", C: "3+ hikes" };
const RATES: OptionMap = {
  A: "1.25%–1.50%",
  B: "1.50%–1.75%",
  C: "1.75%–2.00%",
  D: "Above 2.00%",
};
const CLUBS: OptionMap = {
  A: "Manchester City",
  B: "Real Madrid",
  C: "Paris Saint-Germain",
  D: "Another club",
};
const LABS: OptionMap = { A: "OpenAI", B: "Google DeepMind", C: "Anthropic", D: "Other" };

const rows: Row[] = [
  {
    name: "short range labels on one line",
    options: STORMS,
    reply: "Since 1990, 2 or 3 landfalls came in 11 of 34 seasons.\n\n0-1: 30%, 2-3: 48%, 4+: 22%",
    expected: { A: 0.3, B: 0.48, C: 0.22 },
  },
  {
    name: "short range labels in bullets with en dashes",
    options: STORMS,
    reply: "- 0–1: 25%\n- 2–3: 50%\n- 4+: 25%",
    expected: { A: 0.25, B: 0.5, C: 0.25 },
  },
  {
    name: "open-ended label written out",
    options: HIKES,
    reply: "Markets price 40 bp of hikes.\n\n0: 35%\n1-2: 45%\n3 or more: 20%",
    expected: { A: 0.35, B: 0.45, C: 0.2 },
  },
  {
    name: "percent-range option texts as labels",
    options: RATES,
    reply:
      "Policy sits at 1.75%–2.00%.\n\n1.25%–1.50%: 20%\n1.50%–1.75%: 35%\n1.75%–2.00%: 40%\nAbove 2.00%: 5%",
    expected: { A: 0.2, B: 0.35, C: 0.4, D: 0.05 },
  },
  {
    name: "percent-range option texts in a table",
    options: RATES,
    reply:
      "| Range | Probability |\n|---|---|\n| 1.25%–1.50% | 10% |\n| 1.50%–1.75% | 30% |\n| 1.75%–2.00% | 50% |\n| Above 2.00% | 10% |",
    expected: { A: 0.1, B: 0.3, C: 0.5, D: 0.1 },
  },
  {
    name: "a percent range that is not an option's text is no label",
    options: RATES,
    reply: "Policy at 1.75%–2.25%: 40%",
    expected: null,
  },
  {
    name: "bounds written as symbols for options written in words",
    options: { A: "Fewer than 10", B: "10–14", C: "15–19", D: "20 or more" },
    reply: "< 10 — 10%\n10–14 — 40%\n15–19 — 35%\n≥ 20 — 15%",
    expected: { A: 0.1, B: 0.4, C: 0.35, D: 0.15 },
  },
  {
    name: "bounds written in words for options written as symbols",
    options: { A: "<1%", B: "1%–2%", C: ">2%" },
    reply: "Under 1%: 20%\n1%–2%: 50%\nOver 2.0%: 30%",
    expected: { A: 0.2, B: 0.5, C: 0.3 },
  },
  {
    name: "bounds that name no option are no labels",
    options: { A: "Fewer than 10", B: "10 or more" },
    reply: "<5: 20%\n5-9: 30%\n10+: 50%",
    expected: null,
  },
  {
    name: "final probabilities after reasoning on the same line",
    options: LABS,
    reply:
      "Google DeepMind held the top spot 40% of the time last year. Final probabilities: OpenAI 0.3, Google DeepMind 0.35, Anthropic 0.25, Other 0.1.",
    expected: { A: 0.3, B: 0.35, C: 0.25, D: 0.1 },
  },
  {
    name: "the rest of the field after its figure",
    options: CLUBS,
    reply:
      "My split: Real Madrid 35%, Manchester City 30%, PSG 20%, and 15% on the rest of the field.",
    expected: { A: 0.3, B: 0.35, C: 0.2, D: 0.15 },
  },
  {
    name: "the rest of the field before its figure",
    options: CLUBS,
    reply: "City 30%, Real 35%, PSG 20%, the rest of the field 15%.",
    expected: { A: 0.3, B: 0.35, C: 0.2, D: 0.15 },
  },
];

function expectSplit(reply: string, options: OptionMap, expected: Record<string, number> | null) {
  const answer = readAnswer("multiple_choice", reply, options).answer;
  if (expected === null) {
    expect(answer, reply).toBeNull();
    return;
  }
  expect(answer?.type, reply).toBe("multiple_choice");
  if (answer?.type !== "multiple_choice") return;
  for (const [letter, share] of Object.entries(expected)) {
    expect(answer.probabilities[letter], reply).toBeCloseTo(share, 6);
  }
}

describe("options labelled by their figures", () => {
  for (const row of rows) {
    it(row.name, () => expectSplit(row.reply, row.options, row.expected));
  }

  it("reads any count ranges by their short labels, in any order and layout", async () => {
    const unit = fc.constantFrom("landfalls", "seats", "hikes", "goals");
    const dash = fc.constantFrom("-", "–", "—", " to ");
    const layout = fc.constantFrom(", ", "\n", "\n- ", "; ");
    await fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 5 }),
        fc.integer({ min: 1, max: 4 }),
        unit,
        dash,
        layout,
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 1, max: 30 }),
        fc.boolean(),
        (low, width, noun, written, gap, first, second, plus) => {
          const middle = low + width + 1;
          const high = middle + width + 1;
          const options: OptionMap = {
            A: `${low}–${low + width} ${noun}`,
            B: `${middle}–${middle + width} ${noun}`,
            C: `${high} or more ${noun}`,
          };
          const third = 100 - first - second;
          if (third <= 0) return;
          const labels = [
            `${low}${written}${low + width}: ${first}%`,
            `${middle}${written}${middle + width}: ${second}%`,
            `${high}${plus ? "+" : " or more"}: ${third}%`,
          ];
          expectSplit(labels.reverse().join(gap), options, {
            A: first / 100,
            B: second / 100,
            C: third / 100,
          });
        },
      ),
      { numRuns: 300 },
    );
  });
});
