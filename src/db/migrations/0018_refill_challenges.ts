import type { Kysely, Migration } from "kysely";

/**
 * The challenges issued to refill an organization, by what their payments carry of them (the
 * memo's nonce on chain): a refill whose credential never reached the server is credited by
 * reconciliation to the organization it refilled, not to a new one.
 */
export const refillChallenges = (): Migration => ({ up });

async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("refill_challenges")
    .addColumn("challenge_id", "text", (c) => c.primaryKey())
    .addColumn("rail_kind", "text", (c) => c.notNull())
    .addColumn("challenge_tag", "text", (c) => c.notNull())
    .addColumn("organization_id", "text", (c) => c.notNull())
    .addColumn("issued_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("refill_challenges_by_tag")
    .on("refill_challenges")
    .columns(["rail_kind", "challenge_tag"])
    .execute();
  await db.schema
    .createIndex("refill_challenges_by_age")
    .on("refill_challenges")
    .column("issued_at")
    .execute();
}
