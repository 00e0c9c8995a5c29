import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { usdToNanos } from "../../src/util/money.js";
import { request, V1_PREFIXES } from "../support/http.js";
import { startTestServer, type TestServer } from "../support/server.js";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server?.close();
});

async function balanceOf(prefix: string, apiKey: string): Promise<unknown> {
  const response = await request(server.url, `${prefix}/balance`, { apiKey });
  expect(response.status).toBe(200);
  return response.body;
}

describe.each(V1_PREFIXES)("balance under %s", (prefix) => {
  it("reports zero for a new organization", async () => {
    const org = await server.createOrg();
    expect(await balanceOf(prefix, org.apiKey)).toEqual({ balance_dollars: 0 });
  });

  it("reports credits in dollars as they are added", async () => {
    const org = await server.createOrg("5");
    expect(await balanceOf(prefix, org.apiKey)).toEqual({ balance_dollars: 5 });
    await server.services.ledger.credit(org.organizationId, usdToNanos("2.75"), "topup");
    expect(await balanceOf(prefix, org.apiKey)).toEqual({ balance_dollars: 7.75 });
    await server.services.ledger.credit(org.organizationId, 1, "adjustment");
    expect(await balanceOf(prefix, org.apiKey)).toEqual({ balance_dollars: 7.750000001 });
  });

  it("shows what is spendable: open holds are not", async () => {
    const org = await server.createOrg("10");
    const hold = await server.services.ledger.reserve(org.organizationId, usdToNanos("3"));
    expect(await balanceOf(prefix, org.apiKey)).toEqual({ balance_dollars: 7 });
    await server.services.ledger.settle(hold, usdToNanos("1.25"));
    expect(await balanceOf(prefix, org.apiKey)).toEqual({ balance_dollars: 8.75 });
  });

  it("shows each organization only its own balance, for every key it holds", async () => {
    const rich = await server.createOrg("100");
    const poor = await server.createOrg("1");
    const second = await server.services.apiKeys.issue(rich.organizationId);
    expect(await balanceOf(prefix, rich.apiKey)).toEqual({ balance_dollars: 100 });
    expect(await balanceOf(prefix, second.api_key)).toEqual({ balance_dollars: 100 });
    expect(await balanceOf(prefix, poor.apiKey)).toEqual({ balance_dollars: 1 });
  });

  it("ignores query parameters that try to pick another organization", async () => {
    const mine = await server.createOrg("2");
    const theirs = await server.createOrg("50");
    const response = await request(
      server.url,
      `${prefix}/balance?organization_id=${theirs.organizationId}&org=${theirs.organizationId}`,
      { apiKey: mine.apiKey },
    );
    expect(response.body).toEqual({ balance_dollars: 2 });
  });
});
