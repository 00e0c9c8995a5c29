import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { usdToNanos } from "../../src/util/money.js";
import { expectErrorResponse, request, V1_PREFIXES } from "../support/http.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { startTestServer, type TestServer } from "../support/server.js";

let database: TestDatabase;
let server: TestServer;

beforeAll(async () => {
  database = await createTestDatabase();
  server = await startTestServer({ databaseUrl: database.url });
});

afterAll(async () => {
  await server?.close();
  await database?.drop();
});

describe("the API over PostgreSQL", () => {
  it("runs on PostgreSQL", () => {
    expect(server.services.database.dialect).toBe("postgres");
  });

  it("answers /healthz", async () => {
    expect((await request(server.url, "/healthz")).body).toEqual({ status: "ok" });
  });

  it.each(V1_PREFIXES)("serves models and the balance under %s", async (prefix) => {
    const org = await server.createOrg("4.25");
    const models = await request(server.url, `${prefix}/models`, { apiKey: org.apiKey });
    expect(models.status).toBe(200);
    expect((models.body as { data: { id: string }[] }).data.map((m) => m.id)).toEqual([
      "sibyl-baseline",
      "sibyl-demo",
    ]);
    const missing = await request(server.url, `${prefix}/models/absent`, { apiKey: org.apiKey });
    expectErrorResponse(missing, { status: 404, code: "model_not_found" });

    await server.services.ledger.credit(org.organizationId, usdToNanos("0.75"), "topup");
    const balance = await request(server.url, `${prefix}/balance`, { apiKey: org.apiKey });
    expect(balance.body).toEqual({ balance_dollars: 5 });
  });

  it("refuses unknown and revoked keys", async () => {
    const org = await server.createOrg("1");
    await server.services.apiKeys.revoke(org.apiKeyId);
    for (const apiKey of [org.apiKey, `sk_${"Q".repeat(43)}`]) {
      const response = await request(server.url, "/v1/balance", { apiKey });
      expectErrorResponse(response, { status: 401, code: "invalid_api_key" });
    }
  });

  it("never stores a plaintext key", async () => {
    const org = await server.createOrg();
    const rows = await server.services.database.db.query
      .selectFrom("api_keys")
      .selectAll()
      .where("organization_id", "=", org.organizationId)
      .execute();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(org.apiKey.slice(10));
  });
});
