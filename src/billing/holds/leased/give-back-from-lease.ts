import { sql } from "kysely";
import type { Db } from "../../../db/database.js";

/** Gives part of an open lease back to the balance; false when the lease is no longer open. */
export async function giveBackFromLease(
  tx: Db,
  leaseId: string,
  organizationId: string,
  nanos: number,
): Promise<boolean> {
  const shrunk = await tx.changes(sql`
    update reservations set amount_nanos = amount_nanos - ${nanos}
    where id = ${leaseId} and status = 'held'`);
  if (shrunk === 0) return false;
  await tx.changes(sql`
    update organizations set balance_nanos = balance_nanos + ${nanos}
    where id = ${organizationId}`);
  return true;
}
