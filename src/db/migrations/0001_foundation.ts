import { type Kysely, type Migration, sql } from "kysely";
import type { DialectName } from "../connect.js";
import { serialPrimaryKey } from "./columns.js";

export const foundation = (dialect: DialectName): Migration => ({ up: (db) => up(db, dialect) });

async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await db.schema
    .createTable("organizations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("balance_nanos", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addCheckConstraint("organizations_balance_non_negative", sql`balance_nanos >= 0`)
    .execute();

  await db.schema
    .createTable("api_keys")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("organization_id", "text", (c) => c.notNull().references("organizations.id"))
    .addColumn("key_hash", "text", (c) => c.notNull().unique())
    .addColumn("prefix", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("revoked_at", "bigint")
    .execute();
  await db.schema
    .createIndex("api_keys_organization")
    .on("api_keys")
    .column("organization_id")
    .execute();

  await db.schema
    .createTable("ledger_entries")
    .$call(serialPrimaryKey(dialect))
    .addColumn("organization_id", "text", (c) => c.notNull().references("organizations.id"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("amount_nanos", "bigint", (c) => c.notNull())
    .addColumn("balance_after_nanos", "bigint", (c) => c.notNull())
    .addColumn("reference", "text")
    .addColumn("memo", "text")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("ledger_entries_organization")
    .on("ledger_entries")
    .columns(["organization_id", "id"])
    .execute();
  await db.schema
    .createIndex("ledger_entries_reference")
    .on("ledger_entries")
    .column("reference")
    .execute();

  await db.schema
    .createTable("reservations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("organization_id", "text", (c) => c.notNull().references("organizations.id"))
    .addColumn("amount_nanos", "bigint", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("charged_nanos", "bigint")
    .addColumn("reference", "text")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("finished_at", "bigint")
    .execute();
  await db.schema
    .createIndex("reservations_held")
    .on("reservations")
    .columns(["status", "created_at"])
    .execute();

  await db.schema
    .createTable("rate_limit_windows")
    .addColumn("organization_id", "text", (c) => c.notNull())
    .addColumn("window_start", "bigint", (c) => c.notNull())
    .addColumn("request_count", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("rate_limit_windows_pk", ["organization_id", "window_start"])
    .execute();
}
