import { sql } from "kysely";
import type { Db } from "../db/database.js";

/**
 * What each batch's lines have been charged so far, in nano-dollars. A line is charged under the
 * reference `<batch id>:<custom_id>` (lineBillingReference), once at most; its charge entries
 * (the model call, each research source) are found through the reference index, one line at a
 * time, which stays exact whatever the database's text collation.
 */
export async function batchCosts(
  db: Db,
  organizationId: string,
  batchIds: readonly string[],
): Promise<Map<string, number>> {
  const costs = new Map<string, number>();
  for (const batchId of batchIds) {
    const [row] = await db.rows<{ cost: number | string | null }>(sql`
      select -sum(amount_nanos) as cost from ledger_entries
      where organization_id = ${organizationId} and kind = 'charge'
        and reference in (
          select batch_id || ':' || custom_id from batch_lines where batch_id = ${batchId})`);
    costs.set(batchId, Number(row?.cost ?? 0));
  }
  return costs;
}
