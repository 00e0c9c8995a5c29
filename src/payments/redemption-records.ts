import { createHash } from "node:crypto";
import { sql } from "kysely";
import type { ApiKeys } from "../auth/api-keys.js";
import type { Db } from "../db/database.js";
import type { PaymentRedemptionsTable } from "../db/schema.js";
import type { Credential } from "./credential.js";
import { canonicalJson, type JsonValue } from "./jcs.js";

/** How long a payer whose answer was lost may present the same credential again. */
export const RECOVERY_WINDOW_SECONDS = 24 * 3600;

/**
 * How long a new payer's first answer may still be on its way: a copy of the credential sent
 * meanwhile (a concurrent duplicate) must not take the key from the answer that carries it.
 */
export const RECOVERY_DELAY_SECONDS = 30;

export type Redemption = PaymentRedemptionsTable;

/** The credential hash of a redemption made by reconciliation, which saw no credential. */
export const RECONCILED_CREDENTIAL = "reconciled";

/** The credential as a fingerprint: the same challenge and proof give the same one. */
export function credentialDigest(credential: Credential): string {
  const proof = canonicalJson({
    challenge: credential.challenge.id,
    payload: credential.payload as JsonValue,
  });
  return createHash("sha256").update(proof, "utf8").digest("hex");
}

export async function findRedemption(db: Db, challengeId: string): Promise<Redemption | null> {
  const row = await db.query
    .selectFrom("payment_redemptions")
    .selectAll()
    .where("challenge_id", "=", challengeId)
    .executeTakeFirst();
  return row ? { ...row, amount_cents: Number(row.amount_cents) } : null;
}

export async function recordRedemption(tx: Db, redemption: Redemption): Promise<void> {
  await tx.query.insertInto("payment_redemptions").values(redemption).execute();
}

/**
 * Why a credential presented again gets nothing back, and when presenting it again can help;
 * null when its payer may recover.
 */
export function refusalOfRecovery(
  earlier: Redemption,
  credential: Credential,
  idempotencyKey: string | null,
  now: number,
): { reason: string; retryAfterSeconds?: number } | null {
  if (earlier.credential_hash !== credentialDigest(credential)) {
    return { reason: "it was already redeemed" };
  }
  const age = now - Number(earlier.redeemed_at);
  if (age > RECOVERY_WINDOW_SECONDS) return { reason: "it was redeemed over 24 hours ago" };
  if (earlier.api_key_id !== null && age < RECOVERY_DELAY_SECONDS) {
    const wait = RECOVERY_DELAY_SECONDS - age;
    return {
      reason: `it was just redeemed; if its answer was lost, present it again in ${wait} seconds`,
      retryAfterSeconds: wait,
    };
  }
  // The draft's Idempotency-Key: a retry under another key is another request.
  if (earlier.idempotency_key !== null && earlier.idempotency_key !== idempotencyKey) {
    return { reason: "it was redeemed by a request with another Idempotency-Key" };
  }
  return null;
}

/**
 * A new payer's answer was lost: its organization gets a fresh key and the one issued with the
 * lost answer, never used, is revoked. Keys stay stored hashed only. Null when that key has
 * been used: its holder saw the answer, and the credential gives nothing more.
 */
export async function reissueKey(
  db: Db,
  apiKeys: ApiKeys,
  earlier: Redemption,
  now: number,
): Promise<{ api_key: string; api_key_id: string } | null> {
  const lostKeyId = earlier.api_key_id;
  if (lostKeyId === null) return null;
  return db.transaction(async (tx) => {
    const revoked = await tx.changes(sql`
      update api_keys set revoked_at = ${now}
      where id = ${lostKeyId} and last_used_at is null and revoked_at is null`);
    if (revoked === 0) return null;
    const key = await apiKeys.issue(earlier.organization_id, tx, { name: "MPP payer (reissued)" });
    const moved = await tx.changes(sql`
      update payment_redemptions set api_key_id = ${key.api_key_id}
      where challenge_id = ${earlier.challenge_id} and api_key_id = ${lostKeyId}`);
    if (moved === 0) throw new Error("the redemption changed while its key was reissued");
    return key;
  });
}
