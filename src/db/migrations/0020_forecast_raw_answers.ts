import type { Kysely, Migration } from "kysely";

/**
 * A recorded forecast keeps the model's own answer beside the calibrated one it returned, and
 * the calibration that made it: maps are fitted on what the model said, and a map fitted after
 * calibrated answers were recorded would otherwise be fitted on a mix of the two.
 */
export const forecastRawAnswers = (): Migration => ({ up });

async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("forecasts").addColumn("raw_answer", "text").execute();
  await db.schema.alterTable("forecasts").addColumn("calibration_id", "text").execute();
}
