import type { CreateTableBuilder, Kysely, Migration } from "kysely";
import type { DialectName } from "../connect.js";

/**
 * An auto-incrementing `seq` primary key: public ids are random, so lists page in insertion
 * order through this column.
 */
export function sequencePrimaryKey(dialect: DialectName) {
  return <T extends string>(table: CreateTableBuilder<T>) =>
    dialect === "postgres"
      ? table.addColumn("seq", "bigserial", (c) => c.primaryKey())
      : table.addColumn("seq", "integer", (c) => c.primaryKey().autoIncrement());
}

export const files = (dialect: DialectName): Migration => ({ up: (db) => up(db, dialect) });

async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await db.schema
    .createTable("files")
    .$call(sequencePrimaryKey(dialect))
    .addColumn("id", "text", (c) => c.notNull().unique())
    .addColumn("organization_id", "text", (c) => c.notNull().references("organizations.id"))
    .addColumn("purpose", "text", (c) => c.notNull())
    .addColumn("filename", "text", (c) => c.notNull())
    .addColumn("bytes", "bigint", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("status_details", "text")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("expires_at", "bigint")
    .execute();
  await db.schema
    .createIndex("files_organization")
    .on("files")
    .columns(["organization_id", "seq"])
    .execute();
  await db.schema.createIndex("files_expiry").on("files").column("expires_at").execute();
}
