import { sql } from "kysely";
import type { Statements } from "../../../db/database.js";

/**
 * Closes an open stored hold (or lease) as settled, with what it charged, or as released; false
 * when it was no longer open, which is how a second settlement or release learns it came second.
 */
export async function finishHold(
  tx: Statements,
  reservationId: string,
  status: "settled" | "released",
  now: number,
  chargedNanos: number | null = null,
): Promise<boolean> {
  // A released lease keeps what its requests were charged.
  const charged = status === "settled" ? sql`${chargedNanos}` : sql`charged_nanos`;
  const changed = await tx.changes(sql`
    update reservations
    set status = ${status}, finished_at = ${now}, charged_nanos = ${charged}
    where id = ${reservationId} and status = 'held'`);
  return changed > 0;
}
