import { sql } from "kysely";
import type { Db } from "../db/database.js";

/**
 * Runs `work` in a transaction unless another process of the cluster is running the same sweep
 * right now, in which case it returns false at once: a transaction-scoped advisory lock on
 * PostgreSQL, freed when the transaction ends. SQLite runs one writer at a time anyway.
 */
export function sweepExclusively(
  db: Db,
  sweep: string,
  work: (tx: Db) => Promise<void>,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    if (tx.dialect === "postgres") {
      const [row] = await tx.rows<{ acquired: boolean }>(
        sql`select pg_try_advisory_xact_lock(hashtextextended(${`sibyl.${sweep}`}, 0)) as acquired`,
      );
      if (!row?.acquired) return false;
    }
    await work(tx);
    return true;
  });
}
