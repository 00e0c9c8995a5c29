import { sql, type Updateable } from "kysely";
import { keySpendSoFar } from "../billing/key-spend-so-far.js";
import type { Db } from "../db/database.js";
import type { ApiKeysTable, KeyScope } from "../db/schema.js";
import { invalidRequest, notFound, ServiceError } from "../errors.js";
import { type Clock, unixSeconds } from "../util/clock.js";
import { isWellFormedId } from "../util/ids.js";
import type { ApiKeys, KeyTerms } from "./api-keys.js";

/** A key as its organization sees it: never its digest. */
export interface KeyRecord {
  id: string;
  organization_id: string;
  prefix: string;
  name: string | null;
  scope: KeyScope;
  created_at: number;
  last_used_at: number | null;
  expires_at: number | null;
  revoked_at: number | null;
  spend_limit_nanos: number | null;
  /** Settled charges plus open holds; kept only for keys with a spend limit. */
  spent_nanos: number;
}

export interface KeyPageQuery {
  /** The id of the last key of the previous page. */
  after?: string | undefined;
  limit: number;
  order: "asc" | "desc";
}

export interface KeyPage {
  keys: KeyRecord[];
  hasMore: boolean;
}

/** What an admin may change on an existing key; an absent field stays as it is, null clears it. */
export interface KeyChanges {
  name?: string | null;
  expiresAt?: number | null;
  spendLimitNanos?: number | null;
}

export interface CreatedKey {
  record: KeyRecord;
  /** The key itself, shown this once: only its digest is stored. */
  secret: string;
}

const KEY_COLUMNS = [
  "id",
  "organization_id",
  "prefix",
  "name",
  "scope",
  "created_at",
  "last_used_at",
  "expires_at",
  "revoked_at",
  "spend_limit_nanos",
  "spent_nanos",
] as const;

/**
 * An organization's keys as its admins manage them: every lookup is scoped to the organization,
 * so another organization's key is answered exactly like an unknown one.
 */
export class OrganizationKeys {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly apiKeys: ApiKeys,
  ) {}

  async create(organizationId: string, terms: KeyTerms): Promise<CreatedKey> {
    this.checkTerms(terms);
    const issued = await this.apiKeys.issue(organizationId, this.db, terms);
    return { record: await this.get(organizationId, issued.api_key_id), secret: issued.api_key };
  }

  private checkTerms(terms: KeyChanges): void {
    if (terms.expiresAt != null && terms.expiresAt <= unixSeconds(this.clock)) {
      throw invalidRequest("expires_at must be in the future.", "invalid_expires_at", "expires_at");
    }
    if (terms.spendLimitNanos != null && terms.spendLimitNanos <= 0) {
      throw invalidRequest(
        "spend_limit_usd must be more than 0.",
        "invalid_spend_limit",
        "spend_limit_usd",
      );
    }
  }

  async get(organizationId: string, keyId: string): Promise<KeyRecord> {
    if (!isWellFormedId(keyId)) throw notFound("api key", keyId, "key_id");
    const row = await this.db.query
      .selectFrom("api_keys")
      .select(KEY_COLUMNS)
      .where("organization_id", "=", organizationId)
      .where("id", "=", keyId)
      .executeTakeFirst();
    if (!row) throw notFound("api key", keyId, "key_id");
    return row;
  }

  /** Every key, oldest first. */
  async all(organizationId: string): Promise<KeyRecord[]> {
    return this.db.query
      .selectFrom("api_keys")
      .select(KEY_COLUMNS)
      .where("organization_id", "=", organizationId)
      .orderBy("created_at")
      .orderBy("id")
      .execute();
  }

  /** One page in creation order; `after` must name one of the organization's keys. */
  async list(organizationId: string, query: KeyPageQuery): Promise<KeyPage> {
    const cursor =
      query.after && isWellFormedId(query.after)
        ? await this.db.query
            .selectFrom("api_keys")
            .select(["id", "created_at"])
            .where("organization_id", "=", organizationId)
            .where("id", "=", query.after)
            .executeTakeFirst()
        : undefined;
    if (query.after && !cursor) throw notFound("api key", query.after, "after");
    const later = query.order === "asc" ? ">" : "<";
    const rows = await this.db.query
      .selectFrom("api_keys")
      .select(KEY_COLUMNS)
      .where("organization_id", "=", organizationId)
      .$if(cursor !== undefined, (select) =>
        select.where((eb) =>
          eb.or([
            eb("created_at", later, cursor?.created_at ?? 0),
            eb.and([
              eb("created_at", "=", cursor?.created_at ?? 0),
              eb("id", later, cursor?.id ?? ""),
            ]),
          ]),
        ),
      )
      .orderBy("created_at", query.order)
      .orderBy("id", query.order)
      .limit(query.limit + 1)
      .execute();
    return { keys: rows.slice(0, query.limit), hasMore: rows.length > query.limit };
  }

  /**
   * Changes a live key's name, expiry or spend limit. A key that gets a limit when it had none
   * starts from what it has spent so far (see keySpendSoFar); a key whose limit changes keeps
   * its spend and open holds, so a limit below them stops its paid requests until they settle.
   */
  async update(organizationId: string, keyId: string, changes: KeyChanges): Promise<KeyRecord> {
    this.checkTerms(changes);
    if (!isWellFormedId(keyId)) throw notFound("api key", keyId, "key_id");
    await this.db.transaction(async (tx) => {
      const lock = tx.dialect === "postgres" ? sql` for update` : sql``;
      const [row] = await tx.rows<{ spend_limit_nanos: number | null; revoked_at: number | null }>(
        sql`
          select spend_limit_nanos, revoked_at from api_keys
          where id = ${keyId} and organization_id = ${organizationId}${lock}`,
      );
      if (!row) throw notFound("api key", keyId, "key_id");
      if (row.revoked_at !== null) throw revokedKey(keyId);
      const values: Updateable<ApiKeysTable> = {};
      if (changes.name !== undefined) values.name = changes.name;
      if (changes.expiresAt !== undefined) values.expires_at = changes.expiresAt;
      if (changes.spendLimitNanos !== undefined) values.spend_limit_nanos = changes.spendLimitNanos;
      // Only keys with a limit keep their spend: a key getting its first one starts from its past.
      if (changes.spendLimitNanos != null && row.spend_limit_nanos === null) {
        values.spent_nanos = await keySpendSoFar(tx, organizationId, keyId);
      }
      if (Object.keys(values).length === 0) return;
      await tx.query.updateTable("api_keys").set(values).where("id", "=", keyId).execute();
    });
    this.apiKeys.keysChanged();
    return this.get(organizationId, keyId);
  }

  /** Revokes a key of the organization; revoking it again keeps the first revocation time. */
  async revoke(organizationId: string, keyId: string): Promise<KeyRecord> {
    if (!isWellFormedId(keyId)) throw notFound("api key", keyId, "key_id");
    await this.db.query
      .updateTable("api_keys")
      .set({ revoked_at: unixSeconds(this.clock) })
      .where("organization_id", "=", organizationId)
      .where("id", "=", keyId)
      .where("revoked_at", "is", null)
      .execute();
    this.apiKeys.keysChanged();
    return this.get(organizationId, keyId);
  }
}

const revokedKey = (keyId: string) =>
  new ServiceError("conflict", `API key '${keyId}' is revoked and can no longer be changed.`, {
    code: "api_key_revoked",
    param: "key_id",
  });
