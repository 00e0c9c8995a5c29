import { sql } from "kysely";
import type { Db } from "../db/database.js";
import type { ApiKeysTable } from "../db/schema.js";
import { notFound } from "../errors.js";
import { type Clock, unixSeconds } from "../util/clock.js";
import { newId } from "../util/ids.js";
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

type KeyRow = Pick<ApiKeysTable, "id" | "organization_id" | "key_hash" | "revoked_at">;

/** API keys: only a SHA-256 digest and a short visible prefix are ever stored. */
export class ApiKeys {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** Issues a key; `db` may be a caller's transaction, which the new key then joins. */
  async issue(organizationId: string, db: Db = this.db): Promise<IssuedKey> {
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
    const row = await this.db.query
      .selectFrom("api_keys")
      .select(["id", "organization_id", "prefix", "created_at", "revoked_at"])
      .where("id", "=", keyId)
      .executeTakeFirst();
    if (!row) throw notFound("api key", keyId);
    return row;
  }

  /** The organization behind a presented key, or null for unknown, malformed or revoked keys. */
  async authenticate(presented: string): Promise<Principal | null> {
    if (!looksLikeKey(presented)) return null;
    const digest = hashKey(presented);
    // Runs on every request: a hand-written statement skips the query builder's CPU cost.
    const [row] = await this.db.rows<KeyRow>(sql`
      select id, organization_id, key_hash, revoked_at
      from api_keys where key_hash = ${digest}`);
    if (!row || !sameDigest(row.key_hash, digest) || row.revoked_at !== null) return null;
    return { organizationId: row.organization_id, keyId: row.id };
  }
}
