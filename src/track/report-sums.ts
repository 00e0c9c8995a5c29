import type { Db } from "../db/database.js";
import { type DateRange, monthStart, planRange, weekStart } from "./score-periods.js";
import { forecastSums, type ScoreGrouping, type ScoreSums } from "./score-records.js";
import { totalSums } from "./score-totals.js";

export type ScoreBucket = "week" | "month";

/**
 * The sums of a score report over [from, to): whole months and days from the running totals,
 * part days from the forecasts, merged by group, answer type, calibration bin and (with a
 * bucket) the week or month of the prediction date, in `period_start`.
 */
export async function reportSums(
  db: Db,
  organizationId: string,
  groupBy: ScoreGrouping,
  range: DateRange,
  bucket: ScoreBucket | null,
): Promise<ScoreSums[]> {
  // Months do not split into weeks: a report by week reads whole days.
  const plan = planRange(range, bucket !== "week");
  const byPeriod = bucket !== null;
  const parts = await Promise.all([
    ...plan.months.map((months) =>
      totalSums(db, { organizationId, groupBy, period: "month", range: months, byPeriod }),
    ),
    ...plan.days.map((days) =>
      totalSums(db, { organizationId, groupBy, period: "day", range: days, byPeriod }),
    ),
    ...plan.forecasts.map((part) =>
      forecastSums(db, { organizationId, groupBy, ...part, byDate: byPeriod }),
    ),
  ]);
  const bucketOf = bucket === "week" ? weekStart : monthStart;
  const merged = new Map<string, ScoreSums>();
  for (const row of parts.flat()) {
    const start = bucket === null || row.period_start === null ? null : bucketOf(row.period_start);
    const key = JSON.stringify([row.grp, row.answer_type, row.calibration_bin, start]);
    const into = merged.get(key);
    if (into === undefined) {
      merged.set(key, { ...row, period_start: start });
      continue;
    }
    into.n += row.n;
    into.imputed += row.imputed;
    for (const column of ["brier", "log_score", "crps", "probability", "outcome_value"] as const) {
      const value = row[column];
      if (value !== null) into[column] = (into[column] ?? 0) + value;
    }
  }
  return [...merged.values()];
}
