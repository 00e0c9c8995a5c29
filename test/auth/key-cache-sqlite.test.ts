import { isDeepStrictEqual } from "node:util";
import Database from "better-sqlite3";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IssuedKey, KeyCheck } from "../../src/auth/api-keys.js";
import { KeyCache } from "../../src/auth/key-cache.js";
import type { Services } from "../../src/services.js";
import { type DatabaseUnderTest, sqliteDatabase as sqliteKind } from "../support/databases.js";
import { eventually } from "../support/polling.js";

describe("API keys cached by a process on SQLite", () => {
  let database: DatabaseUnderTest;
  /** `a` serves requests; `b` is another process on the same file (a worker, a CLI command). */
  let a: Services;
  let b: Services;

  beforeAll(async () => {
    database = await sqliteKind.create();
    a = await database.open();
    b = await database.open();
  });

  afterAll(async () => {
    await database?.dispose();
  });

  /** `a`'s check of a key once it is `want`; fails when it is not within two seconds. */
  function checkBecoming(presented: string, want: KeyCheck): Promise<KeyCheck> {
    return eventually(async () => {
      const check = await a.apiKeys.check(presented);
      return isDeepStrictEqual(check, want) ? check : undefined;
    }, 2_000);
  }

  async function keyInUse(): Promise<{ organizationId: string; key: IssuedKey }> {
    const org = await a.organizations.create("cached keys");
    const key = await a.apiKeys.issue(org.id);
    expect(await a.apiKeys.authenticate(key.api_key)).not.toBeNull();
    return { organizationId: org.id, key };
  }

  /** Revokes on `a`'s own connection without telling its key cache, as nothing in Sibyl does. */
  function revokeBehindTheCache(key: IssuedKey): Promise<number> {
    return a.database.db.changes(
      sql`update api_keys set revoked_at = 1 where id = ${key.api_key_id}`,
    );
  }

  it("serves a key it has read from memory while no other connection writes", async () => {
    const { key } = await keyInUse();
    expect(await revokeBehindTheCache(key)).toBe(1);
    expect(await a.apiKeys.authenticate(key.api_key)).not.toBeNull();
  });

  it("refuses within moments a key another process revoked or let expire", async () => {
    const first = await keyInUse();
    await b.apiKeys.revoke(first.key.api_key_id);
    const revoked = { refused: "revoked" } as const;
    expect(await checkBecoming(first.key.api_key, revoked)).toEqual(revoked);

    const second = await keyInUse();
    await b.database.db.changes(
      sql`update api_keys set expires_at = 1 where id = ${second.key.api_key_id}`,
    );
    const expired = { refused: "expired" } as const;
    expect(await checkBecoming(second.key.api_key, expired)).toEqual(expired);
  });

  it("reads keys again after another connection writes anything, even by plain SQL", async () => {
    const { key } = await keyInUse();
    await revokeBehindTheCache(key);
    const other = new Database(a.config.database.url.replace(/^sqlite:/, ""));
    try {
      other.pragma("busy_timeout = 5000");
      other
        .prepare("insert into organizations (id, name, created_at) values ('org_x', 'x', 0)")
        .run();
    } finally {
      other.close();
    }
    const revoked = { refused: "revoked" } as const;
    expect(await checkBecoming(key.api_key, revoked)).toEqual(revoked);
  });

  it("sees a spend limit set by another process, and forgets its own changes at once", async () => {
    const limited = await keyInUse();
    await b.organizationKeys.update(limited.organizationId, limited.key.api_key_id, {
      spendLimitNanos: 1_000,
    });
    const spendLimited = async () => {
      const check = await a.apiKeys.check(limited.key.api_key);
      return "holder" in check && check.holder.spendLimited;
    };
    expect(await eventually(async () => (await spendLimited()) || undefined, 2_000)).toBe(true);

    const own = await keyInUse();
    await a.organizationKeys.revoke(own.organizationId, own.key.api_key_id);
    expect(await a.apiKeys.authenticate(own.key.api_key)).toBeNull();
  });
});

describe("the key cache", () => {
  it("does not keep a key read before a change that came in while it was read", async () => {
    const cache = new KeyCache<string>();
    let version = 1;
    cache.followVersion(() => version);
    const before = cache.ticket();
    version = 2;
    cache.set("digest", "stale row", 0, before);
    // SQLite is asked again a tenth of a second later at most.
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(cache.get("digest", 0)).toBeUndefined();

    const ticket = cache.ticket();
    cache.changed();
    cache.set("digest", "stale row", 0, ticket);
    expect(cache.get("digest", 0)).toBeUndefined();

    cache.set("digest", "fresh row", 0, cache.ticket());
    expect(cache.get("digest", 0)).toBe("fresh row");
    expect(cache.get("digest", 60_000)).toBeUndefined();
  });
});
