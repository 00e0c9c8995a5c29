import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SignInLinks } from "../../src/auth/sign-in-links.js";
import { ManualClock } from "../support/manual-clock.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { jsonOf } from "./support/json.js";

const DATABASES = [
  { name: "sqlite", create: async () => null },
  { name: "postgres", create: createTestDatabase },
] as const;

describe.each(DATABASES)("the sign-in link exchange on $name", ({ create }) => {
  let database: TestDatabase | null;
  let server: TestServer;
  let clock: ManualClock;
  let links: SignInLinks;
  let organizationId: string;

  beforeAll(async () => {
    database = await create();
    clock = new ManualClock(Date.now());
    server = await startTestServer({
      clock,
      ...(database ? { databaseUrl: database.url } : {}),
    });
    organizationId = (await server.createOrg("3")).organizationId;
    const { services } = server;
    links = new SignInLinks(services.database.db, clock, services.organizations, services.apiKeys);
  });

  afterAll(async () => {
    await server.close();
    await database?.drop();
  });

  const exchange = (token: unknown) =>
    fetch(`${server.url}/v1/dashboard/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token }),
    });

  const signInKeys = async () =>
    server.services.database.db.rows<{ id: string; scope: string }>(sql`
      select id, scope from api_keys
      where organization_id = ${organizationId} and name = ${"dashboard sign-in"}`);

  it("trades a fresh link for a new admin key of the organization, once", async () => {
    const link = await links.create(organizationId);
    expect(link.expiresAt - Math.floor(clock.now() / 1000)).toBe(15 * 60);
    const before = (await signInKeys()).length;

    const response = await exchange(link.token);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = (await response.json()) as Record<string, string>;
    expect(Object.keys(body).sort()).toEqual(["api_key", "api_key_id", "organization_id"]);
    expect(body.organization_id).toBe(organizationId);
    expect(body.api_key).toMatch(/^sk_/);

    const balance = await fetch(`${server.url}/v1/balance`, {
      headers: { authorization: `Bearer ${body.api_key}` },
    });
    expect(await jsonOf<unknown>(balance)).toEqual({ balance_dollars: 3 });
    const keys = await fetch(`${server.url}/v1/organization/api_keys`, {
      headers: { authorization: `Bearer ${body.api_key}` },
    });
    expect(keys.status).toBe(200);
    const created = await signInKeys();
    expect(created).toHaveLength(before + 1);
    expect(created.find((key) => key.id === body.api_key_id)?.scope).toBe("admin");
  });

  it("gives a sign-in key that expires with the session, so sign-ins leave no lasting admin keys", async () => {
    const link = await links.create(organizationId);
    const signedInAt = Math.floor(clock.now() / 1000);
    const body = (await (await exchange(link.token)).json()) as Record<string, string>;
    const balance = () =>
      fetch(`${server.url}/v1/balance`, { headers: { authorization: `Bearer ${body.api_key}` } });
    const [row] = await server.services.database.db.rows<{ expires_at: number | string }>(sql`
      select expires_at from api_keys where id = ${body.api_key_id}`);
    expect(Number(row?.expires_at)).toBe(signedInAt + 12 * 3600);
    clock.advanceSeconds(12 * 3600 - 1);
    expect((await balance()).status).toBe(200);
    clock.advanceSeconds(1);
    expect((await balance()).status).toBe(401);
  });

  it("revokes a sign-in key when its session signs out, and no other key", async () => {
    const signOut = (headers: Record<string, string>) =>
      fetch(`${server.url}/v1/dashboard/sign-out`, { method: "POST", headers });
    const balanceWith = (key: string) =>
      fetch(`${server.url}/v1/balance`, { headers: { authorization: `Bearer ${key}` } });
    const link = await links.create(organizationId);
    const body = (await (await exchange(link.token)).json()) as Record<string, string>;
    const bearer = { authorization: `Bearer ${body.api_key}` };
    expect((await balanceWith(body.api_key as string)).status).toBe(200);

    const signedOut = await signOut(bearer);
    expect(signedOut.status).toBe(200);
    expect(signedOut.headers.get("cache-control")).toBe("no-store");
    expect(await signedOut.json()).toEqual({ revoked: true });
    expect((await balanceWith(body.api_key as string)).status).toBe(401);
    const [row] = await server.services.database.db.rows<{ revoked_at: number | null }>(sql`
      select revoked_at from api_keys where id = ${body.api_key_id}`);
    expect(row?.revoked_at).not.toBeNull();
    expect(await (await signOut(bearer)).json()).toEqual({ revoked: false });

    // A key made by hand is the person's own: signing out with it leaves it working.
    const own = await server.createOrg("1");
    expect(await (await signOut({ authorization: `Bearer ${own.apiKey}` })).json()).toEqual({
      revoked: false,
    });
    expect((await balanceWith(own.apiKey)).status).toBe(200);
    const refusedHeaders: Record<string, string>[] = [
      {},
      { authorization: "Bearer nonsense" },
      { authorization: "Basic x" },
    ];
    for (const headers of refusedHeaders) {
      const response = await signOut(headers);
      expect(response.status, JSON.stringify(headers)).toBe(200);
      expect(await response.json()).toEqual({ revoked: false });
    }
  });

  it("refuses a link used before with a 401 that says so", async () => {
    const link = await links.create(organizationId);
    expect((await exchange(link.token)).status).toBe(200);
    const before = (await signInKeys()).length;
    const again = await exchange(link.token);
    expect(again.status).toBe(401);
    const body = await jsonOf(again);
    expect(body.error.code).toBe("sign_in_link_used");
    expect(body.error.message).toMatch(/already used/);
    expect(await signInKeys()).toHaveLength(before);
  });

  it("refuses an expired link, and accepts one until its last second", async () => {
    const expiring = await links.create(organizationId, 5);
    const lasting = await links.create(organizationId, 5);
    clock.advanceSeconds(5 * 60 - 1);
    expect((await exchange(lasting.token)).status).toBe(200);
    clock.advanceSeconds(1);
    const response = await exchange(expiring.token);
    expect(response.status).toBe(401);
    const body = await jsonOf(response);
    expect(body.error.code).toBe("sign_in_link_expired");
    expect(body.error.message).toMatch(/expired/);
  });

  it("refuses a token no link has, and a malformed one", async () => {
    const unknown = await exchange("A".repeat(43));
    expect(unknown.status).toBe(401);
    expect((await jsonOf(unknown)).error.code).toBe("invalid_sign_in_link");
    for (const token of ["short", "x".repeat(43).replace("x", "-"), 42, ""]) {
      const response = await exchange(token);
      expect([400, 422], JSON.stringify(token)).toContain(response.status);
    }
    const noBody = await fetch(`${server.url}/v1/dashboard/sign-in`, { method: "POST" });
    expect(noBody.status).toBe(422);
  });

  it("issues exactly one key when the same link is exchanged many times at once", async () => {
    const link = await links.create(organizationId);
    const before = (await signInKeys()).length;
    const responses = await Promise.all(Array.from({ length: 8 }, () => exchange(link.token)));
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([200, 401, 401, 401, 401, 401, 401, 401]);
    expect(await signInKeys()).toHaveLength(before + 1);
  });

  it("creates links only for an organization that exists, for 1 minute to a day", async () => {
    await expect(links.create("org_missing")).rejects.toThrow(/No organization/);
    await expect(links.create(organizationId, 0)).rejects.toThrow(RangeError);
    await expect(links.create(organizationId, 24 * 60 + 1)).rejects.toThrow(RangeError);
    const [row] = await server.services.database.db.rows<{ token_hash: string }>(sql`
      select token_hash from dashboard_links order by created_at desc limit 1`);
    expect(row?.token_hash).toMatch(/^[0-9a-f]{64}$/);
  });
});
