import { randomBytes } from "node:crypto";
import { type Kysely, type Migration, sql } from "kysely";
import { LEDGER_ID_KEY_PURPOSE } from "../schema.js";

/**
 * The secret that turns ledger entry numbers into public ids. Entries are numbered in one
 * sequence across organizations; shown as they are, any organization could count the platform's
 * settlements between two of its own. Public ids are the numbers encrypted under this key, so
 * every row, old and new, has one without a write, and none reveals anything without the key.
 * One key per installation, made here once, so every process and every restart shows the same ids.
 */
export const ledgerIdKey = (): Migration => ({ up });

async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("id_keys")
    .addColumn("purpose", "text", (c) => c.primaryKey())
    .addColumn("key_hex", "text", (c) => c.notNull())
    .execute();
  const key = randomBytes(16).toString("hex");
  await sql`insert into id_keys (purpose, key_hex) values (${LEDGER_ID_KEY_PURPOSE}, ${key})`.execute(
    db,
  );
}
