import type { Kysely, Migration } from "kysely";
import type { DialectName } from "../connect.js";
import { serialPrimaryKey } from "./columns.js";

/**
 * Keys get a scope (`admin` manages keys; every key issued before scopes existed was one), a
 * name, an optional expiry and an optional spend limit. `spent_nanos` is what a key with a limit
 * has committed: its settled charges plus its open holds, kept by the same conditional updates
 * that keep the balance, and a hold records which key's limit carries it. Every settled request
 * leaves one usage record (tokens and cost by key and model) for the usage reports.
 */
export const keyScopes = (dialect: DialectName): Migration => ({ up: (db) => up(db, dialect) });

async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await db.schema
    .alterTable("api_keys")
    .addColumn("scope", "text", (c) => c.notNull().defaultTo("admin"))
    .execute();
  await db.schema.alterTable("api_keys").addColumn("name", "text").execute();
  await db.schema.alterTable("api_keys").addColumn("expires_at", "bigint").execute();
  await db.schema.alterTable("api_keys").addColumn("last_used_at", "bigint").execute();
  await db.schema.alterTable("api_keys").addColumn("spend_limit_nanos", "bigint").execute();
  await db.schema
    .alterTable("api_keys")
    .addColumn("spent_nanos", "bigint", (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema.alterTable("reservations").addColumn("api_key_id", "text").execute();

  await db.schema
    .createTable("usage_records")
    .$call(serialPrimaryKey(dialect))
    .addColumn("organization_id", "text", (c) => c.notNull().references("organizations.id"))
    .addColumn("api_key_id", "text")
    .addColumn("model", "text", (c) => c.notNull())
    .addColumn("input_tokens", "bigint", (c) => c.notNull())
    .addColumn("output_tokens", "bigint", (c) => c.notNull())
    .addColumn("cost_nanos", "bigint", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("usage_records_organization_time")
    .on("usage_records")
    .columns(["organization_id", "created_at"])
    .execute();
}
