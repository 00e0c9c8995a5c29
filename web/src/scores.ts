import type { PooledBrier } from "./api/types";

/** A proper score to four decimals, as the backtest report prints it. */
export const score = (value: number | null | undefined) =>
  value === null || value === undefined ? "–" : value.toFixed(4);

/** The share of answers that could be read, as a percentage. */
export const parseRate = (value: number | null | undefined) =>
  value === null || value === undefined ? "–" : `${(value * 100).toFixed(1)}%`;

/** The mean Brier over every binary case: `pooled_brier`, or `brier` in older summaries. */
export const pooledBrier = (scores: PooledBrier): number | null =>
  scores.pooled_brier ?? scores.brier ?? null;
