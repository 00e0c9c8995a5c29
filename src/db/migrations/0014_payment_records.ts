import type { Kysely, Migration } from "kysely";

/**
 * What keeps a payment from being lost: each redemption (so a payer whose answer was lost gets
 * its organization back), payments found on chain or at the processor that no redemption
 * credited (held by an organization whose key the payer claims with the credential), payments
 * still settling, and how far the chain has been searched.
 */
export const paymentRecords = (): Migration => ({ up });

async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("payment_redemptions")
    .addColumn("challenge_id", "text", (c) => c.primaryKey())
    .addColumn("reference", "text", (c) => c.notNull())
    .addColumn("organization_id", "text", (c) => c.notNull())
    .addColumn("amount_cents", "bigint", (c) => c.notNull())
    .addColumn("api_key_id", "text")
    .addColumn("credential_hash", "text", (c) => c.notNull())
    .addColumn("idempotency_key", "text")
    .addColumn("redeemed_at", "bigint", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("unclaimed_payments")
    .addColumn("reference", "text", (c) => c.primaryKey())
    .addColumn("challenge_tag", "text", (c) => c.notNull())
    .addColumn("organization_id", "text", (c) => c.notNull())
    .addColumn("amount_cents", "bigint", (c) => c.notNull())
    .addColumn("found_at", "bigint", (c) => c.notNull())
    .addColumn("claimed_at", "bigint")
    .execute();

  await db.schema
    .createTable("pending_payments")
    .addColumn("reference", "text", (c) => c.primaryKey())
    .addColumn("challenge_id", "text", (c) => c.notNull())
    .addColumn("refill_organization_id", "text")
    .addColumn("amount_cents", "bigint", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("finished_at", "bigint")
    .execute();

  await db.schema
    .createTable("chain_scan_cursors")
    .addColumn("scope", "text", (c) => c.primaryKey())
    .addColumn("next_block", "bigint", (c) => c.notNull())
    .execute();
}
