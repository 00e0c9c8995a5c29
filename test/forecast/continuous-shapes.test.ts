import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readAnswer } from "../../src/forecast/extract/index.js";

/*
 * Quantities stated in the shapes models write them, after reasoning whose own figures (a
 * "$28.0bn ± 2%" guidance, "a standard deviation of about 16%", "between 2% and 9%") must never
 * be read as the answer.
 */
const REASONING = [
  "Revenue was $27.4bn last quarter, with guidance of $28.0bn ± 2%. Data-centre revenue is 62% of the total.",
  "Debt rose $1.8 trillion last year; the last 4 years came in between 2% and 9% above the baseline. Historically the change had a standard deviation of about 16%.",
  "The 50-day average is 5,310 and the record close 5,667.",
  "",
];
const MAGNITUDES: [string, number][] = [
  ["k", 1e3],
  ["K", 1e3],
  ["M", 1e6],
  ["bn", 1e9],
  ["tn", 1e12],
  [" million", 1e6],
  [" billion", 1e9],
];

function continuousOf(type: "continuous" | "continuous_value_only", text: string) {
  return readAnswer(type, text, null).answer;
}

const figure = fc.integer({ min: 11, max: 999 }).map((n) => n / 10);

describe("quantities in magnitudes, spreads, percentile lists and ranges", () => {
  it('"about X<unit>, give or take Y<unit> (one standard deviation)" and "X<unit>, sd Y<unit>"', () => {
    fc.assert(
      fc.property(
        figure,
        fc.integer({ min: 1, max: 9 }),
        fc.constantFrom(...MAGNITUDES),
        fc.constantFrom(
          ", give or take ",
          " give or take ",
          ", standard deviation ",
          ", sd ",
          " (sd ",
          " ± ",
        ),
        fc.constantFrom(...REASONING),
        (mean, tenth, [unit, scale], joiner, reasoning) => {
          const spread = (mean * tenth) / 100;
          const text = `${reasoning}\n\nI expect about $${mean}${unit}${joiner}${spread}${unit}${joiner.includes("(") ? ")" : ""}.`;
          const answer = continuousOf("continuous", text);
          expect(answer, text).not.toBeNull();
          if (answer?.type !== "continuous") return;
          expect(answer.mean / (mean * scale), text).toBeCloseTo(1, 9);
          expect(answer.standardDeviation / (spread * scale), text).toBeCloseTo(1, 9);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a percentile list inline, on lines or as a table is read through its median", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 900 }),
        fc.integer({ min: 5, max: 60 }),
        fc.constantFrom("inline", "lines", "table"),
        fc.constantFrom(...REASONING),
        (median, step, shape, reasoning) => {
          const rows: [number, number][] = [
            [5, median - 2 * step],
            [25, median - step],
            [50, median],
            [75, median + step],
            [95, median + 2 * step],
          ];
          const list =
            shape === "inline"
              ? rows.map(([p, v]) => `${p}th: ${v}`).join(", ")
              : shape === "lines"
                ? rows.map(([p, v]) => `${p}th: ${v}`).join("\n")
                : `| Percentile | Value |\n|---|---|\n${rows.map(([p, v]) => `| ${p}% | ${v} |`).join("\n")}`;
          const text = `${reasoning}\n\n${list}`;
          const answer = continuousOf("continuous", text);
          expect(answer?.type === "continuous" ? answer.mean : null, text).toBe(median);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("a percentile list after reasoning that ends on a month keeps its first percentile", () => {
    for (const month of ["March", "May", "Sept.", "December"]) {
      const text = `A price rise is due in ${month}.\n\n10th percentile: 2.1M\n50th: 2.6M\n90th: 3.2M`;
      const answer = continuousOf("continuous", text);
      expect(answer, text).toEqual({
        type: "continuous",
        mean: 2_600_000,
        standardDeviation: expect.closeTo((3_200_000 - 2_100_000) / (2 * 1.2815515655446004), 3),
      });
    }
  });

  it("a labelled range is read at its middle, the scale written once applying to both ends", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 10, max: 400 }),
        fc.integer({ min: 1, max: 100 }),
        fc.constantFrom(...MAGNITUDES),
        fc.boolean(),
        fc.constantFrom("–", "-", " to "),
        fc.constantFrom(...REASONING),
        (low, width, [unit, scale], bothUnits, dash, reasoning) => {
          const high = low + width;
          const text = `${reasoning}\n\nFinal estimate: ${low}${bothUnits ? unit : ""}${dash}${high}${unit}`;
          const answer = continuousOf("continuous_value_only", text);
          const value = answer?.type === "continuous_value_only" ? answer.value : null;
          expect(value, text).toBeCloseTo(((low + high) / 2) * scale, 3);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a final magnitude is read whole, never a figure of the reasoning", () => {
    fc.assert(
      fc.property(
        figure,
        fc.constantFrom(...MAGNITUDES),
        fc.constantFrom(...REASONING),
        (value, [unit, scale], reasoning) => {
          const text = `${reasoning}\n\nFinal answer: ~$${value}${unit}`;
          const answer = continuousOf("continuous_value_only", text);
          const read = answer?.type === "continuous_value_only" ? answer.value : null;
          expect(read, text).toBeCloseTo(value * scale, 0);
        },
      ),
      { numRuns: 200 },
    );
  });
});
