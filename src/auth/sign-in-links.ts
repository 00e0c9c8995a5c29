import { createHash } from "node:crypto";
import type { Db } from "../db/database.js";
import { invalidRequest, ServiceError } from "../errors.js";
import { type Clock, unixSeconds } from "../util/clock.js";
import { randomBase62 } from "../util/ids.js";
import type { ApiKeys, IssuedKey } from "./api-keys.js";
import type { Organizations } from "./organizations.js";

/** 43 base62 characters carry 256 bits: a token cannot be guessed within its lifetime. */
const TOKEN_LENGTH = 43;
export const DEFAULT_LINK_MINUTES = 15;
export const MAX_LINK_MINUTES = 24 * 60;
/** The name the dashboard's key carries in the organization's key list. */
export const SIGN_IN_KEY_NAME = "dashboard sign-in";
/**
 * How long a sign-in's key works: a working day's session. Signing out revokes it sooner; keys
 * of sessions never signed out stop on their own instead of piling up as live admin keys.
 */
export const SIGN_IN_SESSION_HOURS = 12;

export interface SignInLink {
  organizationId: string;
  token: string;
  /** Unix seconds. */
  expiresAt: number;
}

export interface SignedIn extends IssuedKey {
  organization_id: string;
}

const tokenHash = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

const refused = (message: string, code: string) =>
  new ServiceError("unauthorized", message, { code });

/**
 * One-time links that let a person without a key into the dashboard: the operator creates one,
 * and exchanging it once yields a new `admin` key of the organization.
 */
export class SignInLinks {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly organizations: Organizations,
    private readonly apiKeys: ApiKeys,
  ) {}

  async create(organizationId: string, minutes = DEFAULT_LINK_MINUTES): Promise<SignInLink> {
    if (!Number.isInteger(minutes) || minutes < 1 || minutes > MAX_LINK_MINUTES) {
      throw new RangeError(
        `a sign-in link lives from 1 to ${MAX_LINK_MINUTES} whole minutes, got ${minutes}`,
      );
    }
    const organization = await this.organizations.get(organizationId);
    const token = randomBase62(TOKEN_LENGTH);
    const now = unixSeconds(this.clock);
    const expiresAt = now + minutes * 60;
    await this.db.query
      .insertInto("dashboard_links")
      .values({
        token_hash: tokenHash(token),
        organization_id: organization.id,
        created_at: now,
        expires_at: expiresAt,
        consumed_at: null,
        api_key_id: null,
      })
      .execute();
    return { organizationId: organization.id, token, expiresAt };
  }

  /** Consumes the link and issues its key in one transaction: a link yields one key, ever. */
  async exchange(token: string): Promise<SignedIn> {
    if (!/^[A-Za-z0-9]{20,100}$/.test(token)) {
      throw invalidRequest("A sign-in token is 20 to 100 letters and digits.", "invalid_token");
    }
    const hash = tokenHash(token);
    const now = unixSeconds(this.clock);
    const signedIn = await this.db.transaction(async (tx) => {
      const link = await tx.query
        .updateTable("dashboard_links")
        .set({ consumed_at: now })
        .where("token_hash", "=", hash)
        .where("consumed_at", "is", null)
        .where("expires_at", ">", now)
        .returning("organization_id")
        .executeTakeFirst();
      if (!link) return null;
      const key = await this.apiKeys.issue(link.organization_id, tx, {
        scope: "admin",
        name: SIGN_IN_KEY_NAME,
        expiresAt: now + SIGN_IN_SESSION_HOURS * 3600,
      });
      await tx.query
        .updateTable("dashboard_links")
        .set({ api_key_id: key.api_key_id })
        .where("token_hash", "=", hash)
        .execute();
      return { ...key, organization_id: link.organization_id };
    });
    if (signedIn) return signedIn;
    throw await this.whyRefused(hash);
  }

  /**
   * Signs a dashboard session out: revokes the presented key when a sign-in link issued it, so a
   * copy left in the browser stops working at once. A key pasted in by hand is the person's own
   * and stays live; an unknown, revoked or expired key changes nothing.
   */
  async signOut(presented: string): Promise<{ revoked: boolean }> {
    const check = await this.apiKeys.check(presented);
    if (!("holder" in check)) return { revoked: false };
    const link = await this.db.query
      .selectFrom("dashboard_links")
      .select("api_key_id")
      .where("api_key_id", "=", check.holder.keyId)
      .executeTakeFirst();
    if (!link) return { revoked: false };
    await this.apiKeys.revoke(check.holder.keyId);
    return { revoked: true };
  }

  private async whyRefused(hash: string): Promise<ServiceError> {
    const link = await this.db.query
      .selectFrom("dashboard_links")
      .select("consumed_at")
      .where("token_hash", "=", hash)
      .executeTakeFirst();
    if (!link) {
      return refused(
        "This sign-in link is not valid: ask the operator for a new one.",
        "invalid_sign_in_link",
      );
    }
    if (link.consumed_at !== null) {
      return refused(
        "This sign-in link was already used: each link signs in once. Ask the operator for a new one.",
        "sign_in_link_used",
      );
    }
    return refused(
      "This sign-in link has expired: ask the operator for a new one.",
      "sign_in_link_expired",
    );
  }
}
