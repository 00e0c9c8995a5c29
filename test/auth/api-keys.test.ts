import { createHash } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ServiceError } from "../../src/errors.js";
import type { Services } from "../../src/services.js";
import { openServices, sqliteUrl } from "../support/services.js";
import { sqliteBytes } from "../support/sqlite-bytes.js";
import { TempDirs } from "../support/temp-dir.js";

const temp = new TempDirs();
let services: Services;
let dataDir: string;

beforeAll(async () => {
  dataDir = temp.make("sibyl-keys-");
  services = await openServices(sqliteUrl(dataDir), dataDir);
});

afterAll(async () => {
  await services.close();
  temp.removeAll();
});

async function newOrgWithKey() {
  const org = await services.organizations.create("keys test");
  const key = await services.apiKeys.issue(org.id);
  return { org, key };
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

describe("issuing keys", () => {
  it("issues sk_ keys with at least 32 random characters, all different", async () => {
    const org = await services.organizations.create("many keys");
    const keys = await Promise.all(
      Array.from({ length: 40 }, () => services.apiKeys.issue(org.id)),
    );
    for (const { api_key, api_key_id } of keys) {
      expect(api_key).toMatch(/^sk_[A-Za-z0-9]{32,}$/);
      expect(api_key_id).toMatch(/^key_/);
    }
    expect(new Set(keys.map((k) => k.api_key)).size).toBe(keys.length);
    expect(new Set(keys.map((k) => k.api_key_id)).size).toBe(keys.length);
    // Random bodies: no character position is the same across every key.
    const bodies = keys.map((k) => k.api_key.slice(3));
    const positions = bodies[0]?.length ?? 0;
    const constant = Array.from({ length: positions }, (_, i) => i).filter((i) =>
      bodies.every((body) => body[i] === bodies[0]?.[i]),
    );
    expect(constant).toEqual([]);
  });

  it("stores only the SHA-256 digest and a short visible prefix", async () => {
    const { org, key } = await newOrgWithKey();
    const rows = await services.database.db.query
      .selectFrom("api_keys")
      .selectAll()
      .where("organization_id", "=", org.id)
      .execute();
    expect(rows).toHaveLength(1);
    const row = rows[0];
    expect(row?.id).toBe(key.api_key_id);
    expect(row?.key_hash).toBe(sha256(key.api_key));
    expect(row?.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row?.prefix.startsWith("sk_")).toBe(true);
    expect(key.api_key.startsWith(row?.prefix ?? "-")).toBe(true);
    expect(row?.prefix.length).toBeLessThanOrEqual(12);
    expect(Object.values(row ?? {})).not.toContain(key.api_key);
  });

  it("never writes the plaintext key to the database file", async () => {
    const { key } = await newOrgWithKey();
    const bytes = sqliteBytes(path.join(dataDir, "sibyl.db"));
    // The digest is there, so the scan does see the stored rows.
    expect(bytes.includes(sha256(key.api_key))).toBe(true);
    expect(bytes.includes(key.api_key)).toBe(false);
    // Nor the secret part after the visible prefix, in any encoding SQLite uses for text.
    const secret = key.api_key.slice(12);
    expect(bytes.includes(secret)).toBe(false);
    expect(bytes.includes(Buffer.from(secret, "utf16le"))).toBe(false);
  });

  it("lists keys without their digests", async () => {
    const { org, key } = await newOrgWithKey();
    const second = await services.apiKeys.issue(org.id);
    const listed = await services.apiKeys.list(org.id);
    expect(listed.map((k) => k.id).sort()).toEqual([key.api_key_id, second.api_key_id].sort());
    for (const summary of listed) {
      expect(Object.keys(summary).sort()).toEqual(
        ["created_at", "id", "organization_id", "prefix", "revoked_at"].sort(),
      );
      expect(summary.revoked_at).toBeNull();
    }
  });
});

describe("authenticating keys", () => {
  it("maps a key to its organization and key id", async () => {
    const { org, key } = await newOrgWithKey();
    const other = await newOrgWithKey();
    expect(await services.apiKeys.authenticate(key.api_key)).toEqual({
      organizationId: org.id,
      keyId: key.api_key_id,
    });
    expect(await services.apiKeys.authenticate(other.key.api_key)).toEqual({
      organizationId: other.org.id,
      keyId: other.key.api_key_id,
    });
  });

  it("refuses a revoked key and keeps the first revocation time", async () => {
    const { key } = await newOrgWithKey();
    const sibling = await services.apiKeys.issue((await newOrgWithKey()).org.id);
    const revoked = await services.apiKeys.revoke(key.api_key_id);
    expect(revoked.revoked_at).toEqual(expect.any(Number));
    expect(await services.apiKeys.authenticate(key.api_key)).toBeNull();
    const again = await services.apiKeys.revoke(key.api_key_id);
    expect(again.revoked_at).toBe(revoked.revoked_at);
    // Revoking one key leaves the others working.
    expect(await services.apiKeys.authenticate(sibling.api_key)).not.toBeNull();
  });

  it("reports revoking an unknown key as not found", async () => {
    const failure = await services.apiKeys.revoke("key_doesnotexist").catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ServiceError);
    expect(failure).toMatchObject({ kind: "not_found", code: "api_key_not_found" });
  });

  it("refuses unknown keys, including one character away from a real key", async () => {
    const { key } = await newOrgWithKey();
    const last = key.api_key.at(-1);
    const altered = `${key.api_key.slice(0, -1)}${last === "a" ? "b" : "a"}`;
    expect(await services.apiKeys.authenticate(altered)).toBeNull();
    expect(await services.apiKeys.authenticate(`sk_${"A".repeat(43)}`)).toBeNull();
  });

  it.each([
    "",
    "sk_",
    "sk_short",
    "pk_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG",
    "SK_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG",
    "sk_0123456789abcdefghijklmnopqrstuvwxyz ABCDEFG",
    "sk_0123456789abcdefghijklmnopqrstuvwxyz'; --",
    `sk_${"a".repeat(500)}`,
  ])("refuses the malformed key %j", async (presented) => {
    expect(await services.apiKeys.authenticate(presented)).toBeNull();
  });

  it("refuses a key that differs only by surrounding text", async () => {
    const { key } = await newOrgWithKey();
    expect(await services.apiKeys.authenticate(` ${key.api_key}`)).toBeNull();
    expect(await services.apiKeys.authenticate(`${key.api_key}x`)).toBeNull();
    expect(await services.apiKeys.authenticate(key.api_key.toUpperCase())).toBeNull();
  });
});
