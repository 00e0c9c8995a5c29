import { type Kysely, type Migration, sql } from "kysely";
import type { DialectName } from "../database.js";

/** The channel on which PostgreSQL announces changes to keys (see KeyCache). */
export const KEY_CHANGES_CHANNEL = "sibyl_key_changes";

/**
 * On PostgreSQL every change that decides whether a key is accepted, and as what (revocation,
 * expiry, scope, spend limit, the key itself), is announced to every process, whichever process
 * or tool made it, so that processes may cache the keys they have looked up. SQLite has nothing
 * to announce to: one process serves there and reads keys every time.
 */
export const keyChangeNotices = (dialect: DialectName): Migration => ({
  up: async (db: Kysely<unknown>) => {
    if (dialect !== "postgres") return;
    await sql`
      create function sibyl_announce_key_change() returns trigger language plpgsql as $$
      begin
        perform pg_notify(${sql.lit(KEY_CHANGES_CHANNEL)}, '');
        return null;
      end $$`.execute(db);
    await sql`
      create trigger api_keys_announce_change
      after update of key_hash, organization_id, revoked_at, expires_at, scope, spend_limit_nanos
        or delete on api_keys
      for each statement execute function sibyl_announce_key_change()`.execute(db);
  },
});
