import { sql } from "kysely";
import type { Db } from "../db/database.js";
import type { DateRange } from "./score-periods.js";
import { numberOrNull, type ScoreGrouping, type ScoreSums } from "./score-records.js";

export interface TotalsQuery {
  organizationId: string;
  groupBy: ScoreGrouping;
  period: "day" | "month";
  /** Period starts: from inclusive, to exclusive. */
  range: DateRange;
  /** Also by period start, for a report by period. */
  byPeriod: boolean;
}

/** Adds up the running totals (migration 0021) of whole days or months, as forecastSums does. */
export async function totalSums(db: Db, query: TotalsQuery): Promise<ScoreSums[]> {
  const { from, to } = query.range;
  const rows = await db.query
    .selectFrom("score_totals")
    .select([
      "grp",
      "grp_null",
      "answer_type",
      "calibration_bin",
      (query.byPeriod ? sql<number | null>`period_start` : sql<number | null>`null`).as(
        "period_start",
      ),
      sql<number>`sum(n)`.as("n"),
      sql<number>`sum(imputed)`.as("imputed"),
      sql<number>`sum(brier)`.as("brier"),
      sql<number>`sum(log_score)`.as("log_score"),
      sql<number>`sum(crps)`.as("crps"),
      sql<number>`sum(probability)`.as("probability"),
      sql<number>`sum(outcome_value)`.as("outcome_value"),
    ])
    .where("organization_id", "=", query.organizationId)
    .where("group_kind", "=", query.groupBy)
    .where("period", "=", query.period)
    .$if(from !== null, (q) => q.where("period_start", ">=", from ?? 0))
    .$if(to !== null, (q) => q.where("period_start", "<", to ?? 0))
    .groupBy(["grp", "grp_null", "answer_type", "calibration_bin"])
    .$if(query.byPeriod, (q) => q.groupBy("period_start"))
    // Totals emptied by rescoring or annulment stay behind as zeros.
    .having(sql<number>`sum(n)`, ">", 0)
    .execute();
  return rows.map((row) => ({
    grp: Number(row.grp_null) === 1 ? null : row.grp,
    period_start: numberOrNull(row.period_start),
    answer_type: row.answer_type,
    calibration_bin: Number(row.calibration_bin) === -1 ? null : Number(row.calibration_bin),
    n: Number(row.n),
    imputed: Number(row.imputed),
    brier: Number(row.brier),
    log_score: Number(row.log_score),
    crps: Number(row.crps),
    probability: Number(row.probability),
    outcome_value: Number(row.outcome_value),
  }));
}
