import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { startTestServer, type TestOrg, type TestServer } from "../support/server.js";

/** Requests that lose a race for a lock inside PostgreSQL, as under heavy contention. */
describe("PostgreSQL turning a request away for conflicting work", () => {
  let database: TestDatabase;
  let server: TestServer;
  let org: TestOrg;
  let locker: pg.Client;

  beforeAll(async () => {
    database = await createTestDatabase();
    // A short lock timeout turns a wait behind the test's lock into SQLSTATE 55P03 at once.
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    await admin.query(
      `alter database "${new URL(database.url).pathname.slice(1)}" set lock_timeout = '200ms'`,
    );
    await admin.end();
    server = await startTestServer({ config: { database: { url: database.url } } });
    org = await server.createOrg("1");
    locker = new pg.Client({ connectionString: database.url });
    await locker.connect();
  });

  afterAll(async () => {
    await locker?.end();
    await server?.close();
    await database?.drop();
  });

  const complete = () =>
    fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${org.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({
        model: "sibyl-baseline",
        messages: [{ role: "user", content: "Will it rain tomorrow?" }],
      }),
    });

  it("answers 503 database_busy with Retry-After, never 500, and serves the retry", async () => {
    await locker.query("begin");
    await locker.query("select 1 from organizations where id = $1 for update", [
      org.organizationId,
    ]);
    try {
      const response = await complete();
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBe("1");
      const body = (await response.json()) as { error: { code: string; type: string } };
      expect(body.error).toMatchObject({ code: "database_busy", type: "api_error" });
    } finally {
      await locker.query("rollback");
    }
    expect((await complete()).status).toBe(200);
  });
});
