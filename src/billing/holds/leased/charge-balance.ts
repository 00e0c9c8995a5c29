import { sql } from "kysely";
import type { Db } from "../../../db/database.js";
import { organizationLock } from "../../organization-lock.js";

/**
 * Charges the balance directly, as far as it reaches: for charges whose lease was closed under
 * them (its money already went back to the balance). Returns what was taken.
 */
export async function chargeBalance(
  tx: Db,
  organizationId: string,
  nanos: number,
): Promise<number> {
  const [row] = await tx.rows<{ balance_nanos: number }>(sql`
    select balance_nanos from organizations where id = ${organizationId}${organizationLock(tx)}`);
  const taken = Math.min(nanos, Math.max(0, row?.balance_nanos ?? 0));
  if (taken > 0) {
    await tx.changes(sql`
      update organizations set balance_nanos = balance_nanos - ${taken}
      where id = ${organizationId}`);
  }
  return taken;
}
