import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isDatabaseOutage } from "../../src/cluster/database-outage.js";
import { createTestDatabase, POSTGRES_ADMIN_URL, type TestDatabase } from "../support/postgres.js";
import { startTestServer, type TestOrg, type TestServer } from "../support/server.js";
import { proxyDatabase, type TcpProxy } from "./support/tcp-proxy.js";

const POOL_SIZE = 3;

/** The API while PostgreSQL goes away and comes back, behind a TCP proxy the test controls. */
describe("PostgreSQL going away", () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let server: TestServer;
  let org: TestOrg;

  beforeAll(async () => {
    database = await createTestDatabase();
    const proxied = await proxyDatabase(database.url);
    proxy = proxied.proxy;
    server = await startTestServer({
      config: {
        database: {
          url: proxied.url,
          pool_size: POOL_SIZE,
          statement_timeout_ms: 300,
          connect_timeout_ms: 1_000,
        },
      },
    });
    org = await server.createOrg("1");
  });

  afterAll(async () => {
    await server?.close();
    await proxy?.start().catch(() => undefined);
    await proxy?.stop();
    await database?.drop();
  });

  const balance = () =>
    fetch(`${server.url}/v1/balance`, { headers: { authorization: `Bearer ${org.apiKey}` } });

  const health = () => fetch(`${server.url}/healthz`);

  it("answers 503 database_unavailable with Retry-After, and recovers without a restart", async () => {
    expect((await balance()).status).toBe(200);
    expect((await health()).status).toBe(200);

    await proxy.stop();
    for (let i = 0; i < 3; i++) {
      for (const response of [await balance(), await health()]) {
        expect(response.status).toBe(503);
        expect(response.headers.get("retry-after")).toBe("2");
        const body = (await response.json()) as { error: { code: string; type: string } };
        expect(body.error).toMatchObject({ code: "database_unavailable", type: "api_error" });
      }
    }

    await proxy.start();
    const response = await balance();
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ balance_dollars: 1 });
    expect((await health()).status).toBe(200);
  });

  it("replaces connections the server terminated; meanwhile failures are 503s, never 500s", async () => {
    const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await admin.connect();
    try {
      const terminated = await admin.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
        [new URL(database.url).pathname.slice(1)],
      );
      expect(terminated.rowCount).toBeGreaterThan(0);
    } finally {
      await admin.end();
    }
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await balance()).status);
    expect(statuses.every((status) => status === 200 || status === 503)).toBe(true);
    expect(statuses.slice(-5)).toEqual([200, 200, 200, 200, 200]);
  });

  it("cancels statements past the configured timeout, and counts that as unavailable", async () => {
    const { db } = server.services.database;
    const [setting] = await db.rows<{ statement_timeout: string }>(sql`show statement_timeout`);
    expect(setting?.statement_timeout).toBe("300ms");
    const slow = await db.rows(sql`select pg_sleep(2)`).catch((error: unknown) => error);
    expect((slow as { code?: string }).code).toBe("57014");
    expect(isDatabaseOutage(slow)).toBe(true);
  });

  it("opens at most pool_size connections however many statements wait", async () => {
    const { db } = server.services.database;
    let peak = 0;
    const sessions = async () => {
      const [row] = await db.rows<{ open: number }>(
        sql`select count(*)::int as open from pg_stat_activity where datname = current_database() and application_name = 'sibyl'`,
      );
      peak = Math.max(peak, row?.open ?? 0);
    };
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        i % 4 === 0 ? sessions() : db.rows(sql`select pg_sleep(0.05)`),
      ),
    );
    await sleep(10);
    await sessions();
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThanOrEqual(POOL_SIZE);
  });
});
