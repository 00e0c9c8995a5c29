import type { Db } from "../db/database.js";
import { invalidRequest } from "../errors.js";
import { unixSecondsOf } from "./dates.js";
import { CALIBRATION_BINS } from "./forecast-score.js";
import { reportSums, type ScoreBucket } from "./report-sums.js";
import type { ScoreGrouping, ScoreSums } from "./score-records.js";

export interface CalibrationBin {
  /** The bin's range of forecast probabilities, [lower, upper); the last includes 1. */
  lower: number;
  upper: number;
  n: number;
  mean_forecast: number;
  observed_frequency: number;
}

export interface GroupScores {
  group: string | null;
  binary: {
    n: number;
    imputed: number;
    brier: number | null;
    log_score: number | null;
    calibration: CalibrationBin[];
  };
  multiple_choice: { n: number; imputed: number; brier: number | null; log_score: number | null };
  continuous: { n: number; imputed: number; crps: number | null; log_score: number | null };
  /** With a bucket: the scores of each week or month (of prediction date) with forecasts. */
  series?: PeriodScores[];
}

export interface PeriodScores {
  /** Unix seconds of the UTC week's (Monday) or month's start. */
  start: number;
  binary: { n: number; imputed: number; brier: number | null; log_score: number | null };
  multiple_choice: { n: number; imputed: number; brier: number | null; log_score: number | null };
  continuous: { n: number; imputed: number; crps: number | null; log_score: number | null };
}

export interface ScoreReport {
  object: "scores";
  group_by: ScoreGrouping;
  from: number | null;
  to: number | null;
  bucket: ScoreBucket | null;
  data: GroupScores[];
}

export interface ScoreReportQuery {
  group_by: ScoreGrouping;
  from?: string | number | undefined;
  to?: string | number | undefined;
  bucket?: ScoreBucket | undefined;
}

/**
 * Scores of the organization's resolved forecasts by model, key or question tag: the mean of
 * each forecast's score, stored when its question resolved, and the calibration bins of binary
 * forecasts, as `sibyl eval` reports them.
 */
export class Scores {
  constructor(private readonly db: Db) {}

  async report(organizationId: string, query: ScoreReportQuery): Promise<ScoreReport> {
    const from = query.from === undefined ? null : unixSecondsOf(query.from, "from");
    const to = query.to === undefined ? null : unixSecondsOf(query.to, "to");
    if (from !== null && to !== null && to <= from) {
      throw invalidRequest("to must be after from.", "invalid_time_range", "to");
    }
    const bucket = query.bucket ?? null;
    const range = { from, to };
    const [sums, periods] = await Promise.all([
      reportSums(this.db, organizationId, query.group_by, range, null),
      bucket === null ? [] : reportSums(this.db, organizationId, query.group_by, range, bucket),
    ]);
    const data = [...groupRows(sums, (row) => row.grp).entries()]
      .map(([group, rows]) => {
        const scores = groupScores(group, rows);
        if (bucket === null) return scores;
        const own = periods.filter((row) => row.grp === group);
        return { ...scores, series: periodScores(own) };
      })
      .sort((a, b) => String(a.group ?? "").localeCompare(String(b.group ?? "")));
    return { object: "scores", group_by: query.group_by, from, to, bucket, data };
  }
}

function groupRows<K>(sums: ScoreSums[], keyOf: (row: ScoreSums) => K): Map<K, ScoreSums[]> {
  const groups = new Map<K, ScoreSums[]>();
  for (const row of sums) {
    const rows = groups.get(keyOf(row)) ?? [];
    rows.push(row);
    groups.set(keyOf(row), rows);
  }
  return groups;
}

function periodScores(rows: ScoreSums[]): PeriodScores[] {
  return [...groupRows(rows, (row) => row.period_start).entries()]
    .map(([start, own]) => {
      const of = (type: string) => own.filter((row) => row.answer_type === type);
      return {
        start: Number(start),
        binary: means(of("binary"), ["brier", "log_score"]),
        multiple_choice: means(of("multiple_choice"), ["brier", "log_score"]),
        continuous: means(of("continuous"), ["crps", "log_score"]),
      };
    })
    .sort((a, b) => a.start - b.start);
}

function groupScores(group: string | null, rows: ScoreSums[]): GroupScores {
  const of = (type: string) => rows.filter((row) => row.answer_type === type);
  const binary = of("binary");
  const choice = of("multiple_choice");
  const continuous = of("continuous");
  return {
    group,
    binary: {
      ...means(binary, ["brier", "log_score"]),
      calibration: binary
        .filter((row) => row.calibration_bin !== null)
        .sort((a, b) => Number(a.calibration_bin) - Number(b.calibration_bin))
        .map((row) => {
          const bin = Number(row.calibration_bin);
          return {
            lower: bin / CALIBRATION_BINS,
            upper: (bin + 1) / CALIBRATION_BINS,
            n: row.n,
            mean_forecast: (row.probability ?? 0) / row.n,
            observed_frequency: (row.outcome_value ?? 0) / row.n,
          };
        }),
    },
    multiple_choice: means(choice, ["brier", "log_score"]),
    continuous: means(continuous, ["crps", "log_score"]),
  };
}

/** The count and the mean of each score over the rows' sums; null means without forecasts. */
function means<K extends "brier" | "log_score" | "crps">(
  rows: ScoreSums[],
  keys: K[],
): { n: number; imputed: number } & Record<K, number | null> {
  const n = rows.reduce((sum, row) => sum + row.n, 0);
  const imputed = rows.reduce((sum, row) => sum + row.imputed, 0);
  const result = { n, imputed } as { n: number; imputed: number } & Record<K, number | null>;
  for (const key of keys) {
    const total = rows.reduce((sum, row) => sum + (row[key] ?? 0), 0);
    result[key] = (n === 0 ? null : total / n) as (typeof result)[K];
  }
  return result;
}
