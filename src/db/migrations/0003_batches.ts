import type { Kysely, Migration } from "kysely";
import type { DialectName } from "../connect.js";
import { sequencePrimaryKey } from "./0002_files.js";

export const batches = (dialect: DialectName): Migration => ({ up: (db) => up(db, dialect) });

async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await db.schema
    .createTable("batches")
    .$call(sequencePrimaryKey(dialect))
    .addColumn("id", "text", (c) => c.notNull().unique())
    .addColumn("organization_id", "text", (c) => c.notNull().references("organizations.id"))
    .addColumn("endpoint", "text", (c) => c.notNull())
    .addColumn("input_file_id", "text", (c) => c.notNull())
    .addColumn("completion_window", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("output_file_id", "text")
    .addColumn("error_file_id", "text")
    .addColumn("errors", "text")
    .addColumn("metadata", "text")
    .addColumn("model", "text")
    .addColumn("output_expires_after", "bigint")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .addColumn("in_progress_at", "bigint")
    .addColumn("finalizing_at", "bigint")
    .addColumn("completed_at", "bigint")
    .addColumn("failed_at", "bigint")
    .addColumn("expired_at", "bigint")
    .addColumn("cancelling_at", "bigint")
    .addColumn("cancelled_at", "bigint")
    .addColumn("request_total", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("request_completed", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("request_failed", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("input_tokens", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("output_tokens", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("cached_tokens", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("reasoning_tokens", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("lease_owner", "text")
    .addColumn("lease_until", "bigint")
    .execute();
  await db.schema
    .createIndex("batches_organization")
    .on("batches")
    .columns(["organization_id", "seq"])
    .execute();
  await db.schema.createIndex("batches_status").on("batches").column("status").execute();

  await db.schema
    .createTable("batch_lines")
    // Small, often-read columns first: SQLite reads a row front to back, and the request and
    // response texts can spill onto overflow pages.
    .addColumn("batch_id", "text", (c) => c.notNull())
    .addColumn("line_number", "integer", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("available_at", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("lease_owner", "text")
    .addColumn("lease_until", "bigint")
    .addColumn("status_code", "integer")
    .addColumn("input_tokens", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("output_tokens", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("cached_tokens", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("reasoning_tokens", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("finished_at", "bigint")
    .addColumn("request_id", "text", (c) => c.notNull())
    .addColumn("custom_id", "text", (c) => c.notNull())
    .addColumn("response_request_id", "text")
    .addColumn("error_code", "text")
    .addColumn("error_message", "text")
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("response_body", "text")
    .addPrimaryKeyConstraint("batch_lines_pk", ["batch_id", "line_number"])
    .execute();
  await db.schema
    .createIndex("batch_lines_queue")
    .on("batch_lines")
    .columns(["batch_id", "status", "line_number"])
    .execute();
}
