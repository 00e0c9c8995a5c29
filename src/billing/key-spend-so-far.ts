import { sql } from "kysely";
import type { Db } from "../db/database.js";

/**
 * What a key has spent and holds right now, for a key that is about to get a spend limit: its
 * settled charges (every usage record under it, batch lines included) plus its open holds that
 * already count against a limit (those taken while it had one). Each such hold moves the key's
 * spend by its difference when it settles, so the sum stays right afterwards. Requests that
 * started while the key had no limit hold nothing against it and are not counted.
 *
 * Run it in the transaction that sets the limit, after locking the key's row: a settlement of
 * one of the key's holds updates that row too, so it commits wholly before or wholly after.
 */
export async function keySpendSoFar(
  tx: Db,
  organizationId: string,
  keyId: string,
): Promise<number> {
  const [row] = await tx.rows<{ settled: number | string | null; held: number | string | null }>(
    sql`
      select
        (select sum(cost_nanos) from usage_records
          where organization_id = ${organizationId} and api_key_id = ${keyId}) as settled,
        (select sum(amount_nanos) from reservations
          where api_key_id = ${keyId} and status = 'held') as held`,
  );
  return Number(row?.settled ?? 0) + Number(row?.held ?? 0);
}
