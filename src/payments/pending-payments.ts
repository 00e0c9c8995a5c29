import { sql } from "kysely";
import type { Db, Statements } from "../db/database.js";
import type { PendingPaymentsTable } from "../db/schema.js";

/** Notes a payment not final yet; noting it again changes nothing. */
export async function notePending(db: Db, payment: PendingPaymentsTable): Promise<void> {
  await db.changes(sql`
    insert into pending_payments
      (reference, challenge_id, refill_organization_id, amount_cents, created_at, finished_at)
    values (${payment.reference}, ${payment.challenge_id}, ${payment.refill_organization_id},
      ${payment.amount_cents}, ${payment.created_at}, null)
    on conflict (reference) do nothing`);
}

/** The payment sent in time for this challenge and not final when last asked, if any. */
export async function pendingFor(db: Db, challengeId: string): Promise<string | null> {
  const row = await db.query
    .selectFrom("pending_payments")
    .select("reference")
    .where("challenge_id", "=", challengeId)
    .orderBy("created_at")
    .executeTakeFirst();
  return row?.reference ?? null;
}

export async function finishPending(tx: Statements, reference: string, now: number) {
  await tx.changes(sql`
    update pending_payments set finished_at = ${now}
    where reference = ${reference} and finished_at is null`);
}

/** Pending payments not finished, oldest first. */
export async function openPending(db: Db, limit: number): Promise<PendingPaymentsTable[]> {
  const rows = await db.query
    .selectFrom("pending_payments")
    .selectAll()
    .where("finished_at", "is", null)
    .orderBy("created_at")
    .limit(limit)
    .execute();
  return rows.map((row) => ({ ...row, amount_cents: Number(row.amount_cents) }));
}
