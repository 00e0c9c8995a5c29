import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Services } from "../../src/services.js";
import { type CompletionsEnv, MODEL, startCompletionsEnv } from "../completions/support/env.js";
import { rejection } from "../completions/support/errors.js";
import { BOTH_DATABASES } from "../support/databases.js";
import { expectErrorResponse } from "../support/http.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { type ApiKeyObject, call, createKey } from "./support/api.js";

const KEYS = "/v1/organization/api_keys";

/** Each request costs 10 prompt and 20 completion tokens: $0.00005. */
const COST_NANOS = 10 * 1_000 + 20 * 2_000;

async function spentNanos(services: Services, keyId: string): Promise<number> {
  const row = await services.database.db.query
    .selectFrom("api_keys")
    .select("spent_nanos")
    .where("id", "=", keyId)
    .executeTakeFirstOrThrow();
  return row.spent_nanos;
}

describe.each(BOTH_DATABASES)("updating keys on $name", (kind) => {
  let env: CompletionsEnv;
  let postgres: TestDatabase | null = null;

  beforeAll(async () => {
    postgres = kind.name === "postgres" ? await createTestDatabase() : null;
    env = await startCompletionsEnv(postgres ? { databaseUrl: postgres.url } : {});
  });
  afterAll(async () => {
    await env?.close();
    await postgres?.drop();
  });

  const update = (adminKey: string, id: string, body: unknown) =>
    call(env.server.url, adminKey, "POST", `${KEYS}/${id}`, body);

  async function ask(apiKey: string) {
    env.fake.enqueue({ usage: { prompt_tokens: 10, completion_tokens: 20 } });
    return env.client(apiKey).chat.completions.create({
      model: MODEL,
      max_tokens: 100,
      messages: [{ role: "user", content: "Will it snow?" }],
    });
  }

  it("changes name, expiry and limit; null removes them and left-out fields stay", async () => {
    const org = await env.org("1");
    const key = await createKey(env.server.url, org.apiKey, { name: "bot" });
    const expiresAt = Math.floor(Date.now() / 1000) + 3600;
    const changed = await update(org.apiKey, key.id, {
      name: "renamed",
      expires_at: expiresAt,
      spend_limit_usd: 2.5,
    });
    expect(changed.status).toBe(200);
    const { value: _secret, ...created } = key;
    expect(changed.body).toEqual({
      ...created,
      name: "renamed",
      expires_at: expiresAt,
      spend_limit_usd: 2.5,
    });

    const partial = await update(org.apiKey, key.id, { spend_limit_usd: 4 });
    expect(partial.body).toMatchObject({ name: "renamed", expires_at: expiresAt });
    const cleared = await update(org.apiKey, key.id, {
      name: null,
      expires_at: null,
      spend_limit_usd: null,
    });
    expect(cleared.body).toMatchObject({ name: null, expires_at: null, spend_limit_usd: null });
    const unchanged = await update(org.apiKey, key.id, {});
    expect(unchanged.body).toEqual(cleared.body);
    const listed = await call(env.server.url, org.apiKey, "GET", `${KEYS}/${key.id}`);
    expect(listed.body).toEqual(cleared.body);
  });

  it("starts a first limit from what the key has spent, and enforces it at once", async () => {
    const org = await env.org("1");
    const key = await createKey(env.server.url, org.apiKey);
    await ask(key.value);
    await ask(key.value);
    // Below what is spent: the key's paid requests stop.
    await update(org.apiKey, key.id, { spend_limit_usd: COST_NANOS / 1e9 });
    expect(await spentNanos(env.server.services, key.id)).toBe(2 * COST_NANOS);
    env.fake.reset();
    const refused = await rejection(ask(key.value));
    expect(refused.status).toBe(403);
    expect(refused.code).toBe("key_spend_limit_reached");
    expect(env.fake.requests).toHaveLength(0);
    env.fake.reset();

    // Raised: the key goes on from its spend, which settles exactly.
    await update(org.apiKey, key.id, { spend_limit_usd: 1 });
    await ask(key.value);
    expect(await spentNanos(env.server.services, key.id)).toBe(3 * COST_NANOS);
  });

  it("counts holds still open when a limit is set again, and settles them exactly", async () => {
    const { services } = env.server;
    const org = await env.org("1");
    const key = await createKey(env.server.url, org.apiKey, { spend_limit_usd: 1 });
    const hold = await services.ledger.reserve(org.organizationId, 7_000, null, undefined, key.id);
    expect(await spentNanos(services, key.id)).toBe(7_000);
    await update(org.apiKey, key.id, { spend_limit_usd: null });
    await update(org.apiKey, key.id, { spend_limit_usd: 0.5 });
    expect(await spentNanos(services, key.id)).toBe(7_000);
    await services.ledger.settle(hold, 3_000, {
      usage: { apiKeyId: key.id, model: MODEL, inputTokens: 1, outputTokens: 1 },
    });
    expect(await spentNanos(services, key.id)).toBe(3_000);
  });

  it("refuses bad changes with a clear 4xx and changes nothing", async () => {
    const org = await env.org("1");
    const key = await createKey(env.server.url, org.apiKey, { spend_limit_usd: 3 });
    const invalid: [unknown, number, string | null][] = [
      [{ scope: "admin" }, 422, null],
      [{ spend_limit_usd: 0 }, 422, null],
      [{ spend_limit_usd: "5" }, 422, null],
      [{ expires_at: 1.5 }, 422, null],
      [{ name: "n".repeat(257) }, 422, null],
      [[], 422, null],
      [{ expires_at: 1 }, 400, "invalid_expires_at"],
      [{ spend_limit_usd: 0.0000000001 }, 400, "invalid_spend_limit"],
    ];
    for (const [body, status, code] of invalid) {
      const response = await update(org.apiKey, key.id, body);
      expect(response.status, JSON.stringify(body)).toBe(status);
      if (code) expectErrorResponse(response, { status, code });
    }
    const malformed = await fetch(`${env.server.url}${KEYS}/${key.id}`, {
      method: "POST",
      headers: { authorization: `Bearer ${org.apiKey}`, "content-type": "application/json" },
      body: "{",
    });
    expect(malformed.status).toBe(422);
    const shown = (await call(env.server.url, org.apiKey, "GET", `${KEYS}/${key.id}`))
      .body as ApiKeyObject;
    expect(shown.spend_limit_usd).toBe(3);
  });

  it("refuses to change a revoked key (409), and answers others' keys as unknown (404)", async () => {
    const org = await env.org("1");
    const key = await createKey(env.server.url, org.apiKey);
    await call(env.server.url, org.apiKey, "DELETE", `${KEYS}/${key.id}`);
    const revoked = await update(org.apiKey, key.id, { name: "again" });
    expectErrorResponse(revoked, { status: 409, code: "api_key_revoked", param: "key_id" });
    expect(revoked.headers.get("x-should-retry")).toBe("false");

    const stranger = await env.org("1");
    for (const id of [stranger.apiKeyId, "key_unknown", "not an id"]) {
      const response = await update(org.apiKey, encodeURIComponent(id), { name: "mine" });
      expectErrorResponse(response, { status: 404, code: "api_key_not_found", param: "key_id" });
    }
    const theirs = (
      await call(env.server.url, stranger.apiKey, "GET", `${KEYS}/${stranger.apiKeyId}`)
    ).body as ApiKeyObject;
    expect(theirs.name).toBeNull();
  });

  it("needs an admin key (403 for an inference key)", async () => {
    const org = await env.org("1");
    const inference = await createKey(env.server.url, org.apiKey, { scope: "inference" });
    const response = await update(inference.value, inference.id, { spend_limit_usd: 100 });
    expectErrorResponse(response, { status: 403, code: "insufficient_scope" });
    const shown = (await call(env.server.url, org.apiKey, "GET", `${KEYS}/${inference.id}`))
      .body as ApiKeyObject;
    expect(shown.spend_limit_usd).toBeNull();
  });
});
