import { sql } from "kysely";
import type { Db } from "../../../db/database.js";

/** Closes an open lease and gives what its requests did not spend back to the balance. */
export async function closeLease(
  tx: Db,
  leaseId: string,
  organizationId: string,
  now: number,
): Promise<void> {
  const [closed] = await tx.rows<{ unspent: number }>(sql`
    update reservations set status = 'settled', finished_at = ${now}
    where id = ${leaseId} and status = 'held'
    returning amount_nanos - coalesce(charged_nanos, 0) as unspent`);
  if (!closed) return;
  await tx.changes(sql`
    update organizations set balance_nanos = balance_nanos + ${closed.unspent}
    where id = ${organizationId}`);
}
