import { mean, percentileInterval, RESAMPLES, SEED, seededRandom } from "../scoring/bootstrap.js";
import type { QuestionKind } from "./sources.js";

/** ForecastBench drops a forecaster with more than this share (%) of imputed forecasts. */
export const IMPUTED_CUTOFF_PCT = 5;

/** One scored row as ForecastBench's leaderboard sees it: a question (and horizon) of a round. */
export interface BenchRow {
  /** ForecastBench's `question_pk` (see questionPk). */
  pk: string;
  /** Bootstrap stratum: the round's due date and the source. */
  stratum: string;
  kind: QuestionKind;
  forecast: number;
  outcome: number;
  /** No readable forecast: scored as 0.5, as ForecastBench imputes it. */
  imputed: boolean;
  /** False for a market still open: counted for imputation, never scored. */
  resolved: boolean;
}

export interface KindScore {
  brier: number | null;
  n: number;
  ci: [number, number] | null;
}

export interface ImputationCheck {
  cutoff_pct: number;
  /** Shares (%) of imputed rows: all rows, market rows (open ones too), resolved dataset rows. */
  overall_pct: number | null;
  market_pct: number | null;
  dataset_pct: number | null;
  /** ForecastBench would leave this forecaster off its leaderboard. */
  over_cutoff: boolean;
}

export interface BenchScores {
  /** Mean Brier over resolved dataset rows. */
  dataset: KindScore;
  /** Mean Brier over resolved market rows. */
  market: KindScore;
  /** ForecastBench's overall: (dataset + market) / 2; n is both counts together. */
  overall: KindScore;
  imputation: ImputationCheck;
}

const round = (value: number | null): number | null =>
  value === null ? null : Math.round(value * 1e6) / 1e6;

const brierOf = (row: BenchRow): number => (row.forecast - row.outcome) ** 2;

const scored = <Row extends Pick<BenchRow, "kind" | "resolved">>(
  rows: Row[],
  kind: QuestionKind,
): Row[] => rows.filter((row) => row.kind === kind && row.resolved);

function share(rows: Pick<BenchRow, "imputed">[]): number | null {
  if (rows.length === 0) return null;
  return (rows.filter((row) => row.imputed).length / rows.length) * 100;
}

/** ForecastBench's rule (leaderboard `get_df_info`): over 5% on all rows, markets or datasets. */
export function imputationCheck(
  rows: Pick<BenchRow, "kind" | "imputed" | "resolved">[],
): ImputationCheck {
  const overall = share(rows);
  const market = share(rows.filter((row) => row.kind === "market"));
  const dataset = share(scored(rows, "dataset"));
  const over = [overall, market, dataset].some((pct) => pct !== null && pct > IMPUTED_CUTOFF_PCT);
  return {
    cutoff_pct: IMPUTED_CUTOFF_PCT,
    overall_pct: round(overall),
    market_pct: round(market),
    dataset_pct: round(dataset),
    over_cutoff: over,
  };
}

/** Dataset, market and overall means at full precision, before rounding for the summary. */
export function benchMeans(rows: BenchRow[]) {
  return means(scored(rows, "dataset").map(brierOf), scored(rows, "market").map(brierOf));
}

function means(dataset: number[], market: number[]) {
  const d = mean(dataset);
  const m = mean(market);
  return { dataset: d, market: m, overall: d === null || m === null ? null : (d + m) / 2 };
}

/**
 * Dataset mean, market mean and their equal-weight overall, as ForecastBench's leaderboard
 * weighs them, with 95% intervals from resampling questions within each stratum (due date and
 * source), as its bootstrap does.
 */
export function benchScores(rows: BenchRow[]): BenchScores {
  const dataset = scored(rows, "dataset");
  const market = scored(rows, "market");
  const point = means(dataset.map(brierOf), market.map(brierOf));
  const intervals = stratifiedIntervals([...dataset, ...market]);
  return {
    dataset: { brier: round(point.dataset), n: dataset.length, ci: intervals.dataset },
    market: { brier: round(point.market), n: market.length, ci: intervals.market },
    overall: {
      brier: round(point.overall),
      n: dataset.length + market.length,
      ci: intervals.overall,
    },
    imputation: imputationCheck(rows),
  };
}

type Interval = [number, number] | null;

/** Percentile intervals of the three means over questions resampled within their stratum. */
export function stratifiedIntervals(rows: BenchRow[]): {
  dataset: Interval;
  market: Interval;
  overall: Interval;
} {
  const strata = new Map<string, Map<string, BenchRow[]>>();
  for (const row of rows) {
    const questions = strata.get(row.stratum) ?? new Map<string, BenchRow[]>();
    const list = questions.get(row.pk) ?? [];
    list.push(row);
    questions.set(row.pk, list);
    strata.set(row.stratum, questions);
  }
  const groups = [...strata.values()].map((questions) => [...questions.values()]);
  const questionCount = groups.reduce((sum, group) => sum + group.length, 0);
  if (questionCount < 2) return { dataset: null, market: null, overall: null };
  const random = seededRandom(SEED);
  const replicates = {
    dataset: new Float64Array(RESAMPLES),
    market: new Float64Array(RESAMPLES),
    overall: new Float64Array(RESAMPLES),
  };
  let complete = { dataset: true, market: true, overall: true };
  for (let resample = 0; resample < RESAMPLES; resample++) {
    const sums = { dataset: 0, market: 0, nd: 0, nm: 0 };
    for (const group of groups) {
      for (let draw = 0; draw < group.length; draw++) {
        for (const row of group[Math.floor(random() * group.length)] ?? []) {
          if (row.kind === "dataset") {
            sums.dataset += brierOf(row);
            sums.nd += 1;
          } else {
            sums.market += brierOf(row);
            sums.nm += 1;
          }
        }
      }
    }
    const d = sums.nd === 0 ? null : sums.dataset / sums.nd;
    const m = sums.nm === 0 ? null : sums.market / sums.nm;
    complete = {
      dataset: complete.dataset && d !== null,
      market: complete.market && m !== null,
      overall: complete.overall && d !== null && m !== null,
    };
    replicates.dataset[resample] = d ?? 0;
    replicates.market[resample] = m ?? 0;
    replicates.overall[resample] = d !== null && m !== null ? (d + m) / 2 : 0;
  }
  const interval = (values: Float64Array, ok: boolean): Interval => {
    if (!ok) return null;
    const [low, high] = percentileInterval(values);
    return [round(low) ?? 0, round(high) ?? 0];
  };
  return {
    dataset: interval(replicates.dataset, complete.dataset),
    market: interval(replicates.market, complete.market),
    overall: interval(replicates.overall, complete.overall),
  };
}
