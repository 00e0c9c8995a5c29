import { sql } from "kysely";
import type { Cluster } from "../cluster/cluster.js";
import type { Db } from "../db/database.js";
import type { KeyScope } from "../db/schema.js";
import { notFound } from "../errors.js";
import { type Clock, unixSeconds } from "../util/clock.js";
import { newId } from "../util/ids.js";
import { KeyCache } from "./key-cache.js";
import { generateKey, hashKey, looksLikeKey, sameDigest } from "./key-material.js";

export interface IssuedKey {
  api_key: string;
  api_key_id: string;
}

export interface KeySummary {
  id: string;
  organization_id: string;
  prefix: string;
  created_at: number;
  revoked_at: number | null;
}

export interface Principal {
  organizationId: string;
  keyId: string;
}

export type { KeyScope };

/** What a key may do and spend; every term is optional. */
export interface KeyTerms {
  /** Default `admin`: the operator's and the top-up's keys manage the organization. */
  scope?: KeyScope;
  name?: string | null;
  /** Unix seconds; the key is refused from then on. */
  expiresAt?: number | null;
  /** The most the key's requests may cost, all together. */
  spendLimitNanos?: number | null;
}

/** A key that authenticated, with the terms its requests are held to. */
export interface KeyHolder extends Principal {
  scope: KeyScope;
  /** Whether the key's spend limit applies to what its requests cost. */
  spendLimited: boolean;
}

export type KeyRefusal = "unknown" | "revoked" | "expired";

export type KeyCheck = { holder: KeyHolder } | { refused: KeyRefusal };

interface KeyRow {
  id: string;
  organization_id: string;
  key_hash: string;
  revoked_at: number | null;
  expires_at: number | null;
  scope: KeyScope;
  spend_limit_nanos: number | null;
  last_used_at: number | null;
}

/** `last_used_at` is kept to this resolution, so using a key writes at most once a minute. */
const LAST_USE_RESOLUTION_SECONDS = 60;

/** API keys: only a SHA-256 digest and a short visible prefix are ever stored. */
export class ApiKeys {
  /** Keys whose last use is being written now, so a burst of requests writes it once. */
  private readonly noting = new Set<string>();
  private readonly cache = new KeyCache<KeyRow>();

  /** With a cluster that announces key changes, keys once read are cached (see KeyCache). */
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    cluster?: Cluster,
  ) {
    cluster?.watchKeyChanges(this.cache);
  }

  /** A key was changed in this process: forget cached keys now, before the announcement. */
  keysChanged(): void {
    this.cache.changed();
  }

  /** Issues a key; `db` may be a caller's transaction, which the new key then joins. */
  async issue(organizationId: string, db: Db = this.db, terms: KeyTerms = {}): Promise<IssuedKey> {
    const key = generateKey();
    const id = newId("key_");
    await db.query
      .insertInto("api_keys")
      .values({
        id,
        organization_id: organizationId,
        key_hash: key.hash,
        prefix: key.visiblePrefix,
        created_at: unixSeconds(this.clock),
        revoked_at: null,
        scope: terms.scope ?? "admin",
        name: terms.name ?? null,
        expires_at: terms.expiresAt ?? null,
        last_used_at: null,
        spend_limit_nanos: terms.spendLimitNanos ?? null,
      })
      .execute();
    return { api_key: key.plaintext, api_key_id: id };
  }

  async list(organizationId: string): Promise<KeySummary[]> {
    return this.db.query
      .selectFrom("api_keys")
      .select(["id", "organization_id", "prefix", "created_at", "revoked_at"])
      .where("organization_id", "=", organizationId)
      .orderBy("created_at")
      .orderBy("id")
      .execute();
  }

  async revoke(keyId: string): Promise<KeySummary> {
    await this.db.query
      .updateTable("api_keys")
      .set({ revoked_at: unixSeconds(this.clock) })
      .where("id", "=", keyId)
      .where("revoked_at", "is", null)
      .execute();
    this.keysChanged();
    const row = await this.db.query
      .selectFrom("api_keys")
      .select(["id", "organization_id", "prefix", "created_at", "revoked_at"])
      .where("id", "=", keyId)
      .executeTakeFirst();
    if (!row) throw notFound("api key", keyId);
    return row;
  }

  /** The organization behind a presented key; null for unknown, revoked or expired keys. */
  async authenticate(presented: string): Promise<Principal | null> {
    const check = await this.check(presented);
    if (!("holder" in check)) return null;
    return { organizationId: check.holder.organizationId, keyId: check.holder.keyId };
  }

  /** The holder of a presented key and its terms, or why the key is refused. */
  async check(presented: string): Promise<KeyCheck> {
    if (!looksLikeKey(presented)) return { refused: "unknown" };
    const digest = hashKey(presented);
    const row = this.cache.get(digest, this.clock.now()) ?? (await this.read(digest));
    if (!row) return { refused: "unknown" };
    if (row.revoked_at !== null) return { refused: "revoked" };
    const now = unixSeconds(this.clock);
    if (row.expires_at !== null && row.expires_at <= now) return { refused: "expired" };
    await this.noteUse(row, now);
    return {
      holder: {
        organizationId: row.organization_id,
        keyId: row.id,
        scope: row.scope,
        spendLimited: row.spend_limit_nanos !== null,
      },
    };
  }

  private async read(digest: string): Promise<KeyRow | null> {
    // Runs on every request the cache cannot answer: a hand-written statement skips the query
    // builder's CPU cost.
    const ticket = this.cache.ticket();
    const [row] = await this.db.rows<KeyRow>(sql`
      select id, organization_id, key_hash, revoked_at, expires_at, scope, spend_limit_nanos,
        last_used_at
      from api_keys where key_hash = ${digest}`);
    if (!row || !sameDigest(row.key_hash, digest)) return null;
    this.cache.set(digest, row, this.clock.now(), ticket);
    return row;
  }

  /** Writes the key's last use when the stored one is a minute old or more. */
  private async noteUse(row: KeyRow, now: number): Promise<void> {
    const recent =
      row.last_used_at !== null && now - row.last_used_at < LAST_USE_RESOLUTION_SECONDS;
    if (recent || this.noting.has(row.id)) return;
    this.noting.add(row.id);
    try {
      await this.db.changes(sql`
        update api_keys set last_used_at = ${now}
        where id = ${row.id}
          and (last_used_at is null or last_used_at <= ${now - LAST_USE_RESOLUTION_SECONDS})`);
      // A cached row must not ask for the write again.
      row.last_used_at = now;
    } finally {
      this.noting.delete(row.id);
    }
  }
}
