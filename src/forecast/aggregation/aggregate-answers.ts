import type { ForecastAnswer } from "../types.js";
import { type Aggregate, arithmeticMean, combine } from "./combine.js";

/** The answer types whose answers are numbers, and so can be combined. */
export const AGGREGATABLE_TYPES = [
  "binary",
  "multiple_choice",
  "continuous",
  "continuous_value_only",
] as const;

export type AggregatableType = (typeof AGGREGATABLE_TYPES)[number];
export type AggregatableAnswer = Extract<ForecastAnswer, { type: AggregatableType }>;

export function isAggregatable(type: string): type is AggregatableType {
  return (AGGREGATABLE_TYPES as readonly string[]).includes(type);
}

/**
 * One answer from several of one type: the one rule per answer type, used by the `ensemble`
 * extension and by `sibyl eval --aggregate` alike. Binary: the probabilities combined.
 * Multiple choice: each option's probability combined (an option a sample leaves out counts as
 * 0) and the result renormalized to sum 1. Continuous: the means combined, and the standard
 * deviation of the equal-weight mixture of the normals. Continuous value only: the values
 * combined. Null when there is no answer to combine.
 */
export function aggregateAnswers(
  type: AggregatableType,
  answers: readonly AggregatableAnswer[],
  aggregate: Aggregate,
): AggregatableAnswer | null {
  if (answers.length === 0) return null;
  switch (type) {
    case "binary":
      return {
        type,
        probability: combine(
          answers.flatMap((a) => (a.type === "binary" ? [a.probability] : [])),
          aggregate,
          true,
        ),
      };
    case "multiple_choice":
      return {
        type,
        probabilities: combineChoices(
          answers.flatMap((a) => (a.type === "multiple_choice" ? [a.probabilities] : [])),
          aggregate,
        ),
      };
    case "continuous":
      return combineNormals(
        answers.flatMap((a) => (a.type === "continuous" ? [a] : [])),
        aggregate,
      );
    case "continuous_value_only":
      return {
        type,
        value: combine(
          answers.flatMap((a) => (a.type === "continuous_value_only" ? [a.value] : [])),
          aggregate,
          false,
        ),
      };
  }
}

function combineChoices(
  distributions: Record<string, number>[],
  aggregate: Aggregate,
): Record<string, number> {
  const letters = [...new Set(distributions.flatMap((d) => Object.keys(d)))].sort();
  const combined = letters.map((letter) =>
    combine(
      distributions.map((d) => d[letter] ?? 0),
      aggregate,
      true,
    ),
  );
  const total = combined.reduce((sum, p) => sum + p, 0);
  return Object.fromEntries(
    letters.map((letter, i) => [
      letter,
      total > 0 ? (combined[i] ?? 0) / total : 1 / letters.length,
    ]),
  );
}

/**
 * The mean is the aggregate of the means; the spread is the mixture's, so samples that disagree
 * widen the distribution instead of being averaged away: √(mean of variances + variance of means).
 */
function combineNormals(
  normals: { mean: number; standardDeviation: number }[],
  aggregate: Aggregate,
): AggregatableAnswer {
  const means = normals.map((n) => n.mean);
  const centre = arithmeticMean(means);
  const meanVariance = arithmeticMean(normals.map((n) => n.standardDeviation ** 2));
  const varianceOfMeans = arithmeticMean(means.map((m) => (m - centre) ** 2));
  return {
    type: "continuous",
    mean: combine(means, aggregate, false),
    standardDeviation: Math.sqrt(meanVariance + varianceOfMeans),
  };
}
