import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectErrorResponse, request } from "../support/http.js";
import { ManualClock } from "../support/manual-clock.js";
import { startTestServer, type TestOrg, type TestServer } from "../support/server.js";
import { type ApiKeyObject, call, createKey, type ListObject } from "./support/api.js";

const clock = new ManualClock();
let server: TestServer;
let owner: TestOrg;

beforeAll(async () => {
  server = await startTestServer({ clock });
  owner = await server.createOrg("5");
});

afterAll(async () => {
  await server.close();
});

const now = () => Math.floor(clock.now() / 1000);
const KEYS = "/v1/organization/api_keys";

async function keyRow(id: string) {
  return server.services.database.db.query
    .selectFrom("api_keys")
    .selectAll()
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
}

describe("creating keys", () => {
  it("returns the key once, with its terms; listing and retrieving never show it", async () => {
    const created = await createKey(server.url, owner.apiKey, {
      name: "forecast bot",
      expires_at: now() + 3600,
      spend_limit_usd: 2.5,
    });
    expect(created).toEqual({
      object: "organization.api_key",
      id: expect.stringMatching(/^key_/),
      name: "forecast bot",
      redacted_value: expect.stringMatching(/^sk_.*\.\.\.$/),
      scope: "inference",
      created_at: now(),
      last_used_at: null,
      expires_at: now() + 3600,
      revoked_at: null,
      spend_limit_usd: 2.5,
      value: expect.stringMatching(/^sk_[A-Za-z0-9]{32,}$/),
    });
    expect(created.value.startsWith(created.redacted_value.slice(0, -3))).toBe(true);
    expect((await keyRow(created.id)).spend_limit_nanos).toBe(2_500_000_000);

    const retrieved = await call(server.url, owner.apiKey, "GET", `${KEYS}/${created.id}`);
    expect(retrieved.status).toBe(200);
    const { value: _secret, ...withoutSecret } = created;
    expect(retrieved.body).toEqual(withoutSecret);
    const listed = await call(server.url, owner.apiKey, "GET", `${KEYS}?limit=100`);
    expect(JSON.stringify(listed.body)).not.toContain(created.value);

    // The new key works, with its own scope.
    const balance = await request(server.url, "/v1/balance", { apiKey: created.value });
    expect(balance.status).toBe(200);
  });

  it("tells every cache not to keep the answer that carries the key", async () => {
    for (const body of [{}, { scope: "admin" }, { name: "bot", spend_limit_usd: 1 }]) {
      const response = await call(server.url, owner.apiKey, "POST", KEYS, body);
      expect(response.status).toBe(200);
      expect((response.body as { value: string }).value).toMatch(/^sk_/);
      expect(response.headers.get("cache-control")).toBe("no-store");
    }
  });

  it("creates admin keys when asked; keys from the operator are admin keys", async () => {
    const admin = await createKey(server.url, owner.apiKey, { scope: "admin" });
    expect(admin.scope).toBe("admin");
    const listed = await call(server.url, admin.value, "GET", `${KEYS}?limit=100`);
    expect(listed.status).toBe(200);
    const scopes = new Map(
      (listed.body as ListObject<ApiKeyObject>).data.map((key) => [key.id, key.scope]),
    );
    expect(scopes.get(owner.apiKeyId)).toBe("admin");
  });

  it.each([
    ["an unknown field", { owner: "me" }],
    ["an unknown scope", { scope: "root" }],
    ["a zero spend limit", { spend_limit_usd: 0 }],
    ["a negative spend limit", { spend_limit_usd: -1 }],
    ["a non-integer expiry", { expires_at: 1.5 }],
    ["a name too long", { name: "n".repeat(257) }],
  ])("refuses %s (422)", async (_label, body) => {
    const response = await call(server.url, owner.apiKey, "POST", KEYS, body);
    expect(response.status).toBe(422);
  });

  it("refuses an expiry in the past and a limit finer than a nano-dollar (400)", async () => {
    const past = await call(server.url, owner.apiKey, "POST", KEYS, { expires_at: now() });
    expectErrorResponse(past, { status: 400, code: "invalid_expires_at", param: "expires_at" });
    const fine = await call(server.url, owner.apiKey, "POST", KEYS, {
      spend_limit_usd: 0.0000000001,
    });
    expectErrorResponse(fine, {
      status: 400,
      code: "invalid_spend_limit",
      param: "spend_limit_usd",
    });
  });
});

describe("listing keys", () => {
  it("pages in creation order with after, both ways", async () => {
    const org = await server.createOrg("1");
    clock.advanceSeconds(1);
    const second = await createKey(server.url, org.apiKey, { name: "second" });
    clock.advanceSeconds(1);
    const third = await createKey(server.url, org.apiKey, { name: "third" });
    const all = [org.apiKeyId, second.id, third.id];

    const first = (await call(server.url, org.apiKey, "GET", `${KEYS}?limit=2`))
      .body as ListObject<ApiKeyObject>;
    expect(first.data.map((key) => key.id)).toEqual(all.slice(0, 2));
    expect(first).toMatchObject({ first_id: all[0], last_id: all[1], has_more: true });
    const rest = (
      await call(server.url, org.apiKey, "GET", `${KEYS}?limit=2&after=${first.last_id}`)
    ).body as ListObject<ApiKeyObject>;
    expect(rest.data.map((key) => key.id)).toEqual([third.id]);
    expect(rest.has_more).toBe(false);

    const newest = (await call(server.url, org.apiKey, "GET", `${KEYS}?order=desc&limit=1`))
      .body as ListObject<ApiKeyObject>;
    expect(newest.data.map((key) => key.id)).toEqual([third.id]);
    const older = (
      await call(server.url, org.apiKey, "GET", `${KEYS}?order=desc&after=${third.id}`)
    ).body as ListObject<ApiKeyObject>;
    expect(older.data.map((key) => key.id)).toEqual([second.id, org.apiKeyId]);
  });

  it("answers an after naming another organization's key exactly like an unknown one", async () => {
    const stranger = await server.createOrg("1");
    const foreign = await call(
      server.url,
      owner.apiKey,
      "GET",
      `${KEYS}?after=${stranger.apiKeyId}`,
    );
    expectErrorResponse(foreign, { status: 404, code: "api_key_not_found", param: "after" });
    const unknown = await call(server.url, owner.apiKey, "GET", `${KEYS}?after=key_unknown`);
    expectErrorResponse(unknown, { status: 404, code: "api_key_not_found", param: "after" });
  });
});

describe("revoking keys", () => {
  it("refuses the key from then on, keeps it listed, and answers a second revoke the same", async () => {
    const key = await createKey(server.url, owner.apiKey);
    const revoked = await call(server.url, owner.apiKey, "DELETE", `${KEYS}/${key.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({
      object: "organization.api_key.deleted",
      id: key.id,
      deleted: true,
    });
    const refused = await request(server.url, "/v1/balance", { apiKey: key.value });
    expectErrorResponse(refused, { status: 401, code: "invalid_api_key" });
    const shown = (await call(server.url, owner.apiKey, "GET", `${KEYS}/${key.id}`))
      .body as ApiKeyObject;
    expect(shown.revoked_at).toBe(now());

    clock.advanceSeconds(5);
    const again = await call(server.url, owner.apiKey, "DELETE", `${KEYS}/${key.id}`);
    expect(again.status).toBe(200);
    expect((await keyRow(key.id)).revoked_at).toBe(shown.revoked_at);
  });

  it("answers another organization's key as unknown (404) and leaves it working", async () => {
    const stranger = await server.createOrg("1");
    for (const method of ["GET", "DELETE"]) {
      const foreign = await call(server.url, owner.apiKey, method, `${KEYS}/${stranger.apiKeyId}`);
      expectErrorResponse(foreign, { status: 404, code: "api_key_not_found", param: "key_id" });
    }
    const still = await request(server.url, "/v1/balance", { apiKey: stranger.apiKey });
    expect(still.status).toBe(200);
  });
});

describe("scopes", () => {
  it("refuses every key route to an inference key (403) and lets it read usage and the ledger", async () => {
    const inference = await createKey(server.url, owner.apiKey, { scope: "inference" });
    const routes: [string, string, unknown?][] = [
      ["GET", KEYS],
      ["POST", KEYS, { scope: "admin" }],
      ["GET", `${KEYS}/${owner.apiKeyId}`],
      ["DELETE", `${KEYS}/${owner.apiKeyId}`],
    ];
    for (const [method, path, body] of routes) {
      const response = await call(server.url, inference.value, method, path, body);
      expectErrorResponse(response, {
        status: 403,
        code: "insufficient_scope",
        type: "permission_error",
      });
      expect((response.body as { error: { message: string } }).error.message).toMatch(/admin/);
    }
    // Nothing was created or revoked.
    expect((await keyRow(owner.apiKeyId)).revoked_at).toBeNull();
    const usage = await call(
      server.url,
      inference.value,
      "GET",
      `/v1/organization/usage/completions?start_time=${now() - 86_400}`,
    );
    expect(usage.status).toBe(200);
    const ledger = await call(server.url, inference.value, "GET", "/v1/organization/ledger");
    expect(ledger.status).toBe(200);
  });
});

describe("expiry", () => {
  it("accepts a key until its expiry and then refuses it with api_key_expired (401)", async () => {
    const key = await createKey(server.url, owner.apiKey, { expires_at: now() + 60 });
    clock.advanceSeconds(59);
    expect((await request(server.url, "/v1/balance", { apiKey: key.value })).status).toBe(200);
    clock.advanceSeconds(1);
    const expired = await request(server.url, "/v1/balance", { apiKey: key.value });
    expectErrorResponse(expired, {
      status: 401,
      code: "api_key_expired",
      type: "authentication_error",
    });
    expect(expired.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(await server.services.apiKeys.authenticate(key.value)).toBeNull();
  });
});

describe("last use", () => {
  it("is written on first use and then at most once a minute", async () => {
    const key = await createKey(server.url, owner.apiKey);
    const use = () => request(server.url, "/v1/balance", { apiKey: key.value });
    expect((await keyRow(key.id)).last_used_at).toBeNull();
    await Promise.all([use(), use(), use()]);
    const first = now();
    expect((await keyRow(key.id)).last_used_at).toBe(first);
    clock.advanceSeconds(59);
    await use();
    expect((await keyRow(key.id)).last_used_at).toBe(first);
    clock.advanceSeconds(1);
    await use();
    expect((await keyRow(key.id)).last_used_at).toBe(first + 60);
    const shown = (await call(server.url, owner.apiKey, "GET", `${KEYS}/${key.id}`))
      .body as ApiKeyObject;
    expect(shown.last_used_at).toBe(first + 60);
  });
});
