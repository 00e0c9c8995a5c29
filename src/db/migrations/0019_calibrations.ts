import type { Kysely, Migration } from "kysely";
import type { DialectName } from "../connect.js";
import { sequencePrimaryKey } from "./0002_files.js";

/**
 * Calibration maps fitted on a model's resolved forecasts: the map (its method and parameters as
 * JSON), how many forecasts it was fitted on and the cross-validated Brier score before and
 * after, by which a request with `calibration` decides whether to apply it.
 */
export const calibrations = (dialect: DialectName): Migration => ({ up: (db) => up(db, dialect) });

async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await db.schema
    .createTable("calibrations")
    .$call(sequencePrimaryKey(dialect))
    .addColumn("id", "text", (c) => c.notNull().unique())
    .addColumn("organization_id", "text", (c) => c.notNull().references("organizations.id"))
    .addColumn("model", "text", (c) => c.notNull())
    .addColumn("method", "text", (c) => c.notNull())
    .addColumn("parameters", "text", (c) => c.notNull())
    .addColumn("n", "integer", (c) => c.notNull())
    .addColumn("folds", "integer", (c) => c.notNull())
    .addColumn("brier_before", "double precision", (c) => c.notNull())
    .addColumn("brier_after", "double precision", (c) => c.notNull())
    .addColumn("improved", "integer", (c) => c.notNull())
    .addColumn("candidates", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
  // `calibration: "auto"` reads the model's latest; lists page newest first.
  await db.schema
    .createIndex("calibrations_by_model")
    .on("calibrations")
    .columns(["organization_id", "model", "seq"])
    .execute();
  await db.schema
    .createIndex("calibrations_by_organization")
    .on("calibrations")
    .columns(["organization_id", "seq"])
    .execute();
}
