import type { Kysely, Migration } from "kysely";

/**
 * Holds belong to a process that proves it is alive (so a live process can return the holds of
 * dead ones), and references that may be used once (a batch line's charge, later a payment's
 * redemption) are made unique by the database itself rather than by a check before the write.
 */
export const moneySafety = (): Migration => ({ up });

async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("processes")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("started_at", "bigint", (c) => c.notNull())
    .addColumn("heartbeat_at", "bigint", (c) => c.notNull())
    .execute();

  await db.schema.alterTable("reservations").addColumn("owner", "text").execute();

  await db.schema
    .createTable("single_use_references")
    .addColumn("scope", "text", (c) => c.notNull())
    .addColumn("reference", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("single_use_references_pk", ["scope", "reference"])
    .execute();
}
