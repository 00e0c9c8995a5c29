import { sql } from "kysely";
import type { Statements } from "./database.js";

/**
 * Records `reference` as used within `scope`; false when it was used before. The primary key
 * decides, so two racing claims cannot both win, on any number of processes: on PostgreSQL the
 * second insert waits for the first one's transaction and then changes nothing.
 */
export async function claimOnce(
  db: Statements,
  scope: string,
  reference: string,
  now: number,
): Promise<boolean> {
  const inserted = await db.changes(sql`
    insert into single_use_references (scope, reference, created_at)
    values (${scope}, ${reference}, ${now})
    on conflict (scope, reference) do nothing`);
  return inserted > 0;
}
