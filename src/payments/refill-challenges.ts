import { sql } from "kysely";
import type { Db, Statements } from "../db/database.js";
import type { RefillChallengesTable } from "../db/schema.js";

/**
 * How long a refill challenge is remembered: a transaction signed before its challenge expired
 * may be mined much later, and reconciliation first looks back 7 days.
 */
export const REFILL_MEMORY_SECONDS = 30 * 24 * 3600;

export async function recordRefillChallenges(
  db: Db,
  challenges: RefillChallengesTable[],
): Promise<void> {
  if (challenges.length === 0) return;
  await db.query.insertInto("refill_challenges").values(challenges).execute();
}

/** The organization the challenge a payment carries was issued to refill, if it was. */
export async function refillOf(
  tx: Statements,
  railKind: string,
  tag: string,
): Promise<{ challenge_id: string; organization_id: string } | null> {
  const [row] = await tx.rows<{ challenge_id: string; organization_id: string }>(sql`
    select challenge_id, organization_id from refill_challenges
    where rail_kind = ${railKind} and challenge_tag = ${tag}
    order by issued_at desc limit 1`);
  return row ?? null;
}

export async function forgetRefillChallenges(db: Db, issuedBefore: number): Promise<void> {
  await db.changes(sql`delete from refill_challenges where issued_at < ${issuedBefore}`);
}
