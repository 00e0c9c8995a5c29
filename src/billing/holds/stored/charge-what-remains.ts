import { sql } from "kysely";
import type { Db } from "../../../db/database.js";
import type { Reservation, Settlement } from "../../ledger-types.js";
import { lockedBalance } from "./row-locks.js";

/**
 * The cost outran the hold and the balance: charge everything there is, down to zero, but
 * never more than the cost. Runs after the hold was claimed, in the same transaction.
 */
export async function chargeWhatRemains(
  tx: Db,
  reservation: Reservation,
  actualNanos: number,
): Promise<Settlement> {
  // Read under the row lock: a release that raced in since the first try may now cover more.
  const available = (await lockedBalance(tx, reservation.organizationId)) + reservation.amountNanos;
  const charged = Math.min(actualNanos, available);
  const balance = available - charged;
  await tx.changes(
    sql`update organizations set balance_nanos = ${balance} where id = ${reservation.organizationId}`,
  );
  await tx.changes(
    sql`update reservations set charged_nanos = ${charged} where id = ${reservation.id}`,
  );
  return { chargedNanos: charged, balanceNanos: balance };
}
