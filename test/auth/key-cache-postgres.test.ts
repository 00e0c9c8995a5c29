import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IssuedKey } from "../../src/auth/api-keys.js";
import type { Services } from "../../src/services.js";
import { type DatabaseUnderTest, postgresDatabase } from "../support/databases.js";

/** Polls until `accepted(key)` says `want`, or gives up after two seconds. */
async function eventually(services: Services, key: IssuedKey, want: boolean): Promise<boolean> {
  const deadline = Date.now() + 2_000;
  for (;;) {
    const accepted = (await services.apiKeys.authenticate(key.api_key)) !== null;
    if (accepted === want || Date.now() > deadline) return accepted;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("API keys cached by processes sharing PostgreSQL", () => {
  let database: DatabaseUnderTest;
  /** Two processes: `a` serves requests, `b` (or a plain SQL client) changes keys. */
  let a: Services;
  let b: Services;

  beforeAll(async () => {
    database = await postgresDatabase.create();
    a = await database.open();
    b = await database.open();
  });

  afterAll(async () => {
    await database?.dispose();
  });

  async function keyInUse(): Promise<{ organizationId: string; key: IssuedKey }> {
    const org = await b.organizations.create("cached keys");
    const key = await b.apiKeys.issue(org.id);
    expect(await a.apiKeys.authenticate(key.api_key)).not.toBeNull();
    return { organizationId: org.id, key };
  }

  /** Changes keys by plain SQL without the announcement, as a tool bypassing it would. */
  async function unannounced(change: () => Promise<unknown>): Promise<void> {
    const db = b.database.db;
    await db.changes(sql`alter table api_keys disable trigger api_keys_announce_change`);
    try {
      await change();
    } finally {
      await db.changes(sql`alter table api_keys enable trigger api_keys_announce_change`);
    }
  }

  it("serves a key it has read from memory until a change is announced", async () => {
    const { key } = await keyInUse();
    await unannounced(() =>
      b.database.db.changes(sql`update api_keys set revoked_at = 1 where id = ${key.api_key_id}`),
    );
    // Unannounced, the revocation is not seen: the key was not read again.
    expect(await a.apiKeys.authenticate(key.api_key)).not.toBeNull();
    // Any announced change makes every process read keys again.
    const other = await keyInUse();
    await b.apiKeys.revoke(other.key.api_key_id);
    expect(await eventually(a, key, false)).toBe(false);
    expect(await eventually(a, other.key, false)).toBe(false);
  });

  it("refuses a key revoked by another process, or by plain SQL, within moments", async () => {
    const first = await keyInUse();
    await b.apiKeys.revoke(first.key.api_key_id);
    expect(await eventually(a, first.key, false)).toBe(false);

    const second = await keyInUse();
    await b.database.db.changes(
      sql`update api_keys set expires_at = 1 where id = ${second.key.api_key_id}`,
    );
    expect(await eventually(a, second.key, false)).toBe(false);
  });

  it("sees a spend limit set by another process", async () => {
    const { organizationId, key } = await keyInUse();
    const before = await a.apiKeys.check(key.api_key);
    expect("holder" in before && before.holder.spendLimited).toBe(false);
    await b.organizationKeys.update(organizationId, key.api_key_id, { spendLimitNanos: 1_000 });
    const deadline = Date.now() + 2_000;
    let limited = false;
    while (!limited && Date.now() < deadline) {
      const check = await a.apiKeys.check(key.api_key);
      limited = "holder" in check && check.holder.spendLimited;
      if (!limited) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(limited).toBe(true);
  });

  it("forgets its own changes at once", async () => {
    const { organizationId, key } = await keyInUse();
    await a.organizationKeys.revoke(organizationId, key.api_key_id);
    expect(await a.apiKeys.authenticate(key.api_key)).toBeNull();
  });

  it("reads every key again while it cannot hear announcements", async () => {
    const { key } = await keyInUse();
    // Cut every process's listening connection: none can hear announcements for a moment.
    await b.database.db.rows(sql`
      select pg_terminate_backend(pid) from pg_stat_activity
      where application_name = 'sibyl-cluster' and datname = current_database()`);
    // Long enough to notice the cut, well before the first reconnection (after 500 ms).
    await new Promise((resolve) => setTimeout(resolve, 100));
    await unannounced(() =>
      b.database.db.changes(sql`update api_keys set revoked_at = 1 where id = ${key.api_key_id}`),
    );
    expect(await a.apiKeys.authenticate(key.api_key)).toBeNull();
  });
});
