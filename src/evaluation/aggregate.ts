import type { Aggregate, Forecast } from "./types.js";

const LOGIT_FLOOR = 0.001;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

function arithmeticMean(values: number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

/** The mean without the lowest and highest tenth (at least one each side from three values on). */
function trimmedMean(values: number[]): number {
  if (values.length < 3) return arithmeticMean(values);
  const cut = Math.max(1, Math.floor(values.length * 0.1));
  const sorted = [...values].sort((a, b) => a - b);
  return arithmeticMean(sorted.slice(cut, sorted.length - cut));
}

/** The mean in log-odds, mapped back: extreme forecasts count for more than in a plain mean. */
function logitMean(probabilities: number[]): number {
  const logits = probabilities.map((p) => {
    const clamped = Math.min(1 - LOGIT_FLOOR, Math.max(LOGIT_FLOOR, p));
    return Math.log(clamped / (1 - clamped));
  });
  return 1 / (1 + Math.exp(-arithmeticMean(logits)));
}

/** Combines numbers; `logit_mean` applies to probabilities only, a plain mean elsewhere. */
export function combine(values: number[], aggregate: Aggregate, probabilities: boolean): number {
  switch (aggregate) {
    case "median":
      return median(values);
    case "mean":
      return arithmeticMean(values);
    case "trimmed_mean":
      return trimmedMean(values);
    case "logit_mean":
      return probabilities ? logitMean(values) : arithmeticMean(values);
  }
}

/**
 * One forecast from several of the same kind: binary probabilities combined directly; each
 * option's probability combined and the result normalized to sum 1; a normal's mean and
 * standard deviation combined separately. Null when there is nothing to combine.
 */
export function aggregateForecasts(forecasts: Forecast[], aggregate: Aggregate): Forecast | null {
  const first = forecasts[0];
  if (first === undefined) return null;
  if (forecasts.length === 1) return first;
  switch (first.type) {
    case "binary": {
      const values = forecasts.flatMap((f) => (f.type === "binary" ? [f.probability] : []));
      return { type: "binary", probability: combine(values, aggregate, true) };
    }
    case "multiple_choice": {
      const vectors = forecasts.flatMap((f) =>
        f.type === "multiple_choice" && f.probabilities.length === first.probabilities.length
          ? [f.probabilities]
          : [],
      );
      const combined = first.probabilities.map((_, option) =>
        combine(
          vectors.map((vector) => vector[option] ?? 0),
          aggregate,
          true,
        ),
      );
      const total = combined.reduce((sum, p) => sum + p, 0);
      return {
        type: "multiple_choice",
        probabilities: combined.map((p) => (total > 0 ? p / total : 1 / combined.length)),
      };
    }
    case "continuous": {
      const normals = forecasts.flatMap((f) => (f.type === "continuous" ? [f] : []));
      return {
        type: "continuous",
        mean: combine(
          normals.map((f) => f.mean),
          aggregate,
          false,
        ),
        sd: combine(
          normals.map((f) => f.sd),
          aggregate,
          false,
        ),
      };
    }
  }
}
