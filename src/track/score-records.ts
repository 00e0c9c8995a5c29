import { sql } from "kysely";
import type { Db } from "../db/database.js";

export type ScoreGrouping = "model" | "api_key" | "tag";

export interface ScoreQuery {
  organizationId: string;
  groupBy: ScoreGrouping;
  /** As-of dates (prediction dates), Unix seconds: from inclusive, to exclusive. */
  from: number | null;
  to: number | null;
  /** Also by prediction date, for a report by period. */
  byDate: boolean;
}

/** Sums of one group's scored forecasts of one answer type in one calibration bin. */
export interface ScoreSums {
  grp: string | null;
  /** With `byDate`: the prediction date, or the start of the day or month of the totals. */
  period_start: number | null;
  answer_type: string;
  calibration_bin: number | null;
  n: number;
  imputed: number;
  brier: number | null;
  log_score: number | null;
  crps: number | null;
  probability: number | null;
  outcome_value: number | null;
}

/**
 * Adds up the stored scores of the organization's scored forecasts in [from, to), by group,
 * answer type and calibration bin; reports read only part days from here (see score-totals).
 */
export async function forecastSums(db: Db, query: ScoreQuery): Promise<ScoreSums[]> {
  const { from, to } = query;
  const rows = await db.query
    .selectFrom("forecasts")
    .$if(query.groupBy === "tag", (q) =>
      q.innerJoin("question_tags", (join) =>
        join
          .onRef("question_tags.organization_id", "=", "forecasts.organization_id")
          .onRef("question_tags.question_id", "=", "forecasts.question_id"),
      ),
    )
    .select([
      groupColumn(query.groupBy).as("grp"),
      "forecasts.answer_type",
      "forecasts.calibration_bin",
      (query.byDate ? sql<number | null>`forecasts.prediction_date` : sql<number | null>`null`).as(
        "period_start",
      ),
      sql<number>`count(*)`.as("n"),
      sql<number>`sum(forecasts.imputed)`.as("imputed"),
      sql<number | null>`sum(forecasts.brier)`.as("brier"),
      sql<number | null>`sum(forecasts.log_score)`.as("log_score"),
      sql<number | null>`sum(forecasts.crps)`.as("crps"),
      sql<number | null>`sum(forecasts.probability)`.as("probability"),
      sql<number | null>`sum(forecasts.outcome_value)`.as("outcome_value"),
    ])
    .where("forecasts.organization_id", "=", query.organizationId)
    .where("forecasts.scored", "=", 1)
    .$if(from !== null, (q) => q.where("forecasts.prediction_date", ">=", from ?? 0))
    .$if(to !== null, (q) => q.where("forecasts.prediction_date", "<", to ?? 0))
    .groupBy(["grp", "forecasts.answer_type", "forecasts.calibration_bin"])
    .$if(query.byDate, (q) => q.groupBy("forecasts.prediction_date"))
    .execute();
  return rows.map((row) => ({
    grp: row.grp === null ? null : String(row.grp),
    period_start: numberOrNull(row.period_start),
    answer_type: row.answer_type,
    calibration_bin: row.calibration_bin === null ? null : Number(row.calibration_bin),
    n: Number(row.n),
    imputed: Number(row.imputed),
    brier: numberOrNull(row.brier),
    log_score: numberOrNull(row.log_score),
    crps: numberOrNull(row.crps),
    probability: numberOrNull(row.probability),
    outcome_value: numberOrNull(row.outcome_value),
  }));
}

function groupColumn(groupBy: ScoreGrouping) {
  switch (groupBy) {
    case "model":
      return sql<string | null>`forecasts.model`;
    case "api_key":
      return sql<string | null>`forecasts.api_key_id`;
    case "tag":
      return sql<string | null>`question_tags.tag`;
  }
}

export const numberOrNull = (value: unknown): number | null =>
  value === null ? null : Number(value);
