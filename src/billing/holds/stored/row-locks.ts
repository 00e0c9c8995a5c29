import { sql } from "kysely";
import type { Db } from "../../../db/database.js";
import { notFound } from "../../../errors.js";

/*
 * Reads under row locks on PostgreSQL, taken in one order everywhere (the reservation, then the
 * key, then the organization; see key-spend.ts). SQLite has no row locks: the transaction's write
 * lock already serialises writers.
 */

function rowLock(tx: Db) {
  return tx.dialect === "postgres" ? sql` for update` : sql``;
}

/** Locks the hold's row; whether it is still open. */
export async function lockIfHeld(tx: Db, reservationId: string): Promise<boolean> {
  const [row] = await tx.rows<{ status: string }>(sql`
    select status from reservations where id = ${reservationId}${rowLock(tx)}`);
  return row?.status === "held";
}

/** The organization's balance row, read under its lock. */
export async function lockedBalance(tx: Db, organizationId: string): Promise<number> {
  const [row] = await tx.rows<{ balance_nanos: number }>(sql`
    select balance_nanos from organizations where id = ${organizationId}${rowLock(tx)}`);
  if (!row) throw notFound("organization", organizationId);
  return row.balance_nanos;
}
