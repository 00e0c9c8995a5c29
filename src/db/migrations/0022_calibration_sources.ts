import type { Kysely, Migration } from "kysely";

/**
 * A calibration may be fitted on a backtest kept on the server instead of the organization's
 * recorded forecasts: it keeps the id of that backtest's summary file (null for recorded
 * forecasts), so a map says what it was fitted on.
 */
export const calibrationSources = (): Migration => ({ up });

async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("calibrations").addColumn("evaluation_id", "text").execute();
}
