import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { aggregateForecasts } from "../../src/evaluation/aggregate.js";
import type { Forecast } from "../../src/evaluation/types.js";
import {
  type AggregatableAnswer,
  aggregateAnswers,
} from "../../src/forecast/aggregation/aggregate-answers.js";
import { AGGREGATES } from "../../src/forecast/aggregation/combine.js";

const probability = fc.double({ min: 0, max: 1, noNaN: true });
const letters = (count: number) =>
  Array.from({ length: count }, (_, i) => String.fromCharCode(65 + i));

describe("one aggregation for the ensemble extension and sibyl eval", () => {
  it("gives identical binary aggregates on the same samples", () => {
    fc.assert(
      fc.property(
        fc.array(probability, { minLength: 1, maxLength: 12 }),
        fc.constantFrom(...AGGREGATES),
        (ps, aggregate) => {
          const served = aggregateAnswers(
            "binary",
            ps.map((p): AggregatableAnswer => ({ type: "binary", probability: p })),
            aggregate,
          );
          const evaluated = aggregateForecasts(
            ps.map((p): Forecast => ({ type: "binary", probability: p })),
            aggregate,
          );
          expect(evaluated).toEqual(served);
        },
      ),
    );
  });

  it("gives identical multiple-choice aggregates on the same samples", () => {
    const samples = fc.integer({ min: 2, max: 6 }).chain((options) =>
      fc.array(fc.array(probability, { minLength: options, maxLength: options }), {
        minLength: 1,
        maxLength: 8,
      }),
    );
    fc.assert(
      fc.property(samples, fc.constantFrom(...AGGREGATES), (vectors, aggregate) => {
        const names = letters(vectors[0]?.length ?? 0);
        const served = aggregateAnswers(
          "multiple_choice",
          vectors.map(
            (v): AggregatableAnswer => ({
              type: "multiple_choice",
              probabilities: Object.fromEntries(v.map((p, i) => [names[i], p])),
            }),
          ),
          aggregate,
        );
        const evaluated = aggregateForecasts(
          vectors.map((v): Forecast => ({ type: "multiple_choice", probabilities: v })),
          aggregate,
        );
        expect(served?.type).toBe("multiple_choice");
        expect(evaluated?.type === "multiple_choice" && evaluated.probabilities).toEqual(
          served?.type === "multiple_choice" ? names.map((n) => served.probabilities[n]) : null,
        );
      }),
    );
  });

  it("gives identical continuous aggregates (mixture spread) on the same samples", () => {
    const normal = fc.record({
      mean: fc.double({ min: -1e6, max: 1e6, noNaN: true }),
      sd: fc.double({ min: 1e-3, max: 1e4, noNaN: true }),
    });
    fc.assert(
      fc.property(
        fc.array(normal, { minLength: 1, maxLength: 8 }),
        fc.constantFrom(...AGGREGATES),
        (normals, aggregate) => {
          const served = aggregateAnswers(
            "continuous",
            normals.map(
              (n): AggregatableAnswer => ({
                type: "continuous",
                mean: n.mean,
                standardDeviation: n.sd,
              }),
            ),
            aggregate,
          );
          const evaluated = aggregateForecasts(
            normals.map((n): Forecast => ({ type: "continuous", mean: n.mean, sd: n.sd })),
            aggregate,
          );
          expect(evaluated).toEqual(
            served?.type === "continuous"
              ? { type: "continuous", mean: served.mean, sd: served.standardDeviation }
              : null,
          );
        },
      ),
    );
  });

  it("combines normals by one rule: the aggregate of the means, the mixture's spread", () => {
    const result = aggregateForecasts(
      [
        { type: "continuous", mean: 10, sd: 1 },
        { type: "continuous", mean: 20, sd: 1 },
      ],
      "mean",
    );
    // √(mean variance 1 + variance of means 25)
    expect(result).toEqual({ type: "continuous", mean: 15, sd: Math.sqrt(26) });
  });
});
