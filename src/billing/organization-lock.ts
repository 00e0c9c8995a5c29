import { sql } from "kysely";
import type { Db } from "../db/database.js";

/**
 * The lock a balance is read under before it changes: PostgreSQL's `for no key update` (what the
 * update itself takes), which lets other transactions insert rows referring to the organization
 * meanwhile. SQLite's write lock already serialises writers.
 */
export function organizationLock(tx: Db) {
  return tx.dialect === "postgres" ? sql` for no key update` : sql``;
}
