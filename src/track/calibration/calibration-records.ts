import type { Selectable } from "kysely";
import type { Db } from "../../db/database.js";
import type { CalibrationsTable } from "../../db/schema.js";
import type { CalibrationPair } from "../../evaluation/scoring/recalibration.js";

export type CalibrationRow = Selectable<CalibrationsTable>;

export async function insertCalibration(db: Db, row: Omit<CalibrationRow, "seq">): Promise<void> {
  await db.query.insertInto("calibrations").values(row).execute();
}

export async function findCalibration(
  db: Db,
  organizationId: string,
  id: string,
): Promise<CalibrationRow | undefined> {
  return db.query
    .selectFrom("calibrations")
    .selectAll()
    .where("organization_id", "=", organizationId)
    .where("id", "=", id)
    .executeTakeFirst();
}

/** The model's latest calibration: what `calibration: "auto"` applies. */
export async function latestCalibration(
  db: Db,
  organizationId: string,
  model: string,
): Promise<CalibrationRow | undefined> {
  return db.query
    .selectFrom("calibrations")
    .selectAll()
    .where("organization_id", "=", organizationId)
    .where("model", "=", model)
    .orderBy("seq", "desc")
    .limit(1)
    .executeTakeFirst();
}

/** Newest first, `limit + 1` rows so the caller can tell whether more follow. */
export async function listCalibrations(
  db: Db,
  query: { organizationId: string; afterSeq: number | undefined; limit: number; model?: string },
): Promise<CalibrationRow[]> {
  const { afterSeq, model } = query;
  return db.query
    .selectFrom("calibrations")
    .selectAll()
    .where("organization_id", "=", query.organizationId)
    .$if(model !== undefined, (q) => q.where("model", "=", model as string))
    .$if(afterSeq !== undefined, (q) => q.where("seq", "<", afterSeq ?? 0))
    .orderBy("seq", "desc")
    .limit(query.limit + 1)
    .execute();
}

/**
 * The model's scored binary forecasts whose answer was read (an imputed 0.5 says nothing of the
 * model), in the order they were recorded, each with its question: the folds follow that order
 * and keep a question's forecasts together. Each is the model's own probability: where a map
 * calibrated the answer returned, the raw answer kept beside it, so that a map is never fitted
 * on the output of another.
 */
export async function resolvedBinaryForecasts(
  db: Db,
  organizationId: string,
  model: string,
): Promise<CalibrationPair[]> {
  const rows = await db.query
    .selectFrom("forecasts")
    .select(["question_id", "probability", "raw_answer", "outcome_value"])
    .where("organization_id", "=", organizationId)
    .where("model", "=", model)
    .where("answer_type", "=", "binary")
    .where("scored", "=", 1)
    .where("imputed", "=", 0)
    .where("probability", "is not", null)
    .where("outcome_value", "is not", null)
    .orderBy("seq")
    .execute();
  return rows.map((row) => ({
    probability: Number(row.raw_answer === null ? row.probability : JSON.parse(row.raw_answer)),
    outcome: Number(row.outcome_value),
    group: row.question_id,
  }));
}
