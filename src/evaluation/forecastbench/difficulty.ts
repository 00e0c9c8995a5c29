import { mean } from "../scoring/bootstrap.js";
import { brierScore } from "../scoring/rules.js";
import { type AdjustedReplicates, adjustedIntervals } from "./adjusted-bootstrap.js";
import type { MarketMethod, QuestionEffects } from "./question-effects.js";
import type { BenchRow } from "./scores.js";

const brier = (row: { forecast: number; outcome: number }) => brierScore(row.forecast, row.outcome);

export interface DifficultyAdjusted {
  /** Rescaled so that Always 0.5 scores 0.25; lower is better. */
  dataset: number | null;
  market: number | null;
  overall: number | null;
  /** (1 − √score) × 100: 100 perfect, 50 for always 0.5; higher is better. */
  brier_index: { dataset: number | null; market: number | null; overall: number | null };
  /** 95% intervals: questions resampled within due date and source, effects fitted again. */
  ci: { dataset: Interval; market: Interval; overall: Interval };
  brier_index_ci: { dataset: Interval; market: Interval; overall: Interval };
  n_dataset: number;
  n_market: number;
  /** Scored rows whose question the reference does not cover: left out of these figures. */
  without_reference: number;
  market_method: MarketMethod;
}

const round = (value: number | null, scale = 1e6): number | null =>
  value === null ? null : Math.round(value * scale) / scale;

const brierIndex = (score: number | null): number | null =>
  score === null || score < 0 ? null : round((1 - Math.sqrt(score)) * 100, 1e4);

/**
 * ForecastBench's difficulty-adjusted Brier of one forecaster: the mean of (Brier − question
 * effect) over its resolved rows, shifted so that Always 0.5 scores 0.25 (`two_way_fixed_effects`,
 * `rescale_difficulty_adjusted_brier`), and its Brier Index (`apply_brier_index_transform`).
 */
export function difficultyAdjusted(
  rows: BenchRow[],
  effects: QuestionEffects,
  replicates: AdjustedReplicates | null = null,
): DifficultyAdjusted {
  const raw = adjustedMeans(rows, effects);
  const ci =
    replicates === null
      ? { dataset: null, market: null, overall: null }
      : adjustedIntervals(rows, replicates);
  const rounded = (interval: Interval): Interval =>
    interval === null ? null : [round(interval[0]) ?? 0, round(interval[1]) ?? 0];
  // The Brier Index falls as the score rises: the score's upper bound is the index's lower one.
  const indexInterval = (interval: Interval): Interval => {
    const low = interval === null ? null : brierIndex(interval[1]);
    const high = interval === null ? null : brierIndex(interval[0]);
    return low === null || high === null ? null : [low, high];
  };
  return {
    dataset: round(raw.dataset),
    market: round(raw.market),
    overall: round(raw.overall),
    brier_index: {
      dataset: brierIndex(raw.dataset),
      market: brierIndex(raw.market),
      overall: brierIndex(raw.overall),
    },
    ci: { dataset: rounded(ci.dataset), market: rounded(ci.market), overall: rounded(ci.overall) },
    brier_index_ci: {
      dataset: indexInterval(ci.dataset),
      market: indexInterval(ci.market),
      overall: indexInterval(ci.overall),
    },
    n_dataset: raw.n_dataset,
    n_market: raw.n_market,
    without_reference: raw.without_reference,
    market_method: effects.marketMethod,
  };
}

type Interval = [number, number] | null;

/** The difficulty-adjusted means at full precision, before rounding for the summary. */
export function adjustedMeans(rows: BenchRow[], effects: QuestionEffects) {
  let without = 0;
  const residuals = (kind: "dataset" | "market") =>
    rows.flatMap((row) => {
      if (!row.resolved || row.kind !== kind) return [];
      const effect = effects[kind].get(row.pk);
      if (effect === undefined) {
        without += 1;
        return [];
      }
      return [brier(row) - effect];
    });
  const datasetResiduals = residuals("dataset");
  const marketResiduals = residuals("market");
  const rescale = (value: number | null, half: number | null) =>
    value === null || half === null ? null : value + 0.25 - half;
  const dataset = rescale(mean(datasetResiduals), effects.alwaysHalf.dataset);
  const market = rescale(mean(marketResiduals), effects.alwaysHalf.market);
  return {
    dataset,
    market,
    overall: dataset === null || market === null ? null : (dataset + market) / 2,
    n_dataset: datasetResiduals.length,
    n_market: marketResiduals.length,
    without_reference: without,
  };
}
