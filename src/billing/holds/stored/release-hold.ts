import { sql } from "kysely";
import type { Db } from "../../../db/database.js";
import { moveKeySpend } from "../../key-spend.js";
import type { Reservation } from "../../ledger-types.js";
import { finishHold } from "./finish-hold.js";

/** An open stored hold or lease as read from `reservations`. */
export interface HoldRow {
  id: string;
  organization_id: string;
  amount_nanos: number;
  charged_nanos: number | null;
  api_key_id: string | null;
}

/**
 * Gives an open hold back whole: to the balance, and off its key's spend. False (nothing moved)
 * when it was no longer open.
 */
export async function releaseHold(tx: Db, reservation: Reservation, now: number): Promise<boolean> {
  if (!(await finishHold(tx, reservation.id, "released", now))) return false;
  if (reservation.spendKeyId) {
    await tx.changes(moveKeySpend(reservation.spendKeyId, -reservation.amountNanos));
  }
  await tx.changes(sql`
    update organizations set balance_nanos = balance_nanos + ${reservation.amountNanos}
    where id = ${reservation.organizationId}`);
  return true;
}

/** Releases holds read from the database; returns how many were still open. */
export async function releaseRows(tx: Db, rows: HoldRow[], now: number): Promise<number> {
  let released = 0;
  for (const row of rows) {
    // An open hold has charged nothing; a lease returns what its requests did not spend.
    const reservation = {
      id: row.id,
      organizationId: row.organization_id,
      amountNanos: row.amount_nanos - (row.charged_nanos ?? 0),
      spendKeyId: row.api_key_id,
    };
    if (await releaseHold(tx, reservation, now)) released += 1;
  }
  return released;
}
