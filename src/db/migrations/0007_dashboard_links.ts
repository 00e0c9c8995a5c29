import type { Kysely, Migration } from "kysely";

/**
 * One-time dashboard sign-in links: only the SHA-256 of a link's token is stored. Exchanging a
 * link sets `consumed_at` in the same conditional update that checks it is unused and unexpired,
 * so a link works once however many requests race for it.
 */
export const dashboardLinks = (): Migration => ({ up });

async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("dashboard_links")
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("organization_id", "text", (c) => c.notNull().references("organizations.id"))
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .addColumn("consumed_at", "bigint")
    .addColumn("api_key_id", "text")
    .execute();
}
