/** How several answers' numbers are combined into one. */
export const AGGREGATES = ["median", "mean", "logit_mean", "trimmed_mean"] as const;
export type Aggregate = (typeof AGGREGATES)[number];

/** Probabilities are kept within [ε, 1 − ε] before log-odds: one 0 or 1 is not ±∞. */
const LOGIT_FLOOR = 0.001;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

export function arithmeticMean(values: number[]): number {
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
