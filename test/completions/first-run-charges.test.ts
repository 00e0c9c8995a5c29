import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestOrg, type TestServer } from "../support/server.js";

let server: TestServer;
let org: TestOrg;

beforeAll(async () => {
  // No models configured: the default list, as on a first run.
  server = await startTestServer();
  org = await server.createOrg("5");
});

afterAll(async () => {
  await server?.close();
});

async function call(path: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${server.url}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { authorization: `Bearer ${org.apiKey}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.status, path).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

type LedgerEntry = { kind: string; amount_usd: number; memo: string | null };

async function charges(): Promise<LedgerEntry[]> {
  const ledger = await call("/v1/organization/ledger?kind=charge&limit=100");
  return ledger.data as LedgerEntry[];
}

describe("a first run on the default configuration", () => {
  it("offers a priced demo model whose calls show in the balance, the ledger and the usage", async () => {
    const models = await call("/v1/models");
    const demo = (models.data as { id: string; pricing?: unknown }[]).find(
      (model) => model.id === "sibyl-demo",
    );
    expect(demo).toBeDefined();
    const completion = await call("/v1/chat/completions", {
      model: "sibyl-demo",
      messages: [{ role: "user", content: "Will it rain in Paris tomorrow?" }],
    });
    const usage = completion.usage as {
      prompt_tokens: number;
      completion_tokens: number;
      cost_usd: number;
    };
    const expected = usage.prompt_tokens * 0.000002 + usage.completion_tokens * 0.00001;
    expect(usage.cost_usd).toBeCloseTo(expected, 9);
    expect(usage.cost_usd).toBeGreaterThan(0);

    const balance = await call("/v1/balance");
    expect(balance.balance_dollars as number).toBeCloseTo(5 - expected, 9);
    const entries = await charges();
    expect(entries).toContainEqual(
      expect.objectContaining({ memo: "sibyl-demo", amount_usd: expect.closeTo(-expected, 9) }),
    );
    const report = await call(
      `/v1/organization/usage/completions?start_time=${Math.floor(Date.now() / 1000) - 86_400}&group_by=model`,
    );
    expect(JSON.stringify(report)).toContain("sibyl-demo");
  });

  it("labels the fee for classifying a question as classification, not as the free model", async () => {
    const before = (await charges()).length;
    await call("/v1/chat/completions", {
      model: "sibyl-baseline",
      messages: [{ role: "user", content: "Will the bill pass before July?" }],
      answer_type: "auto",
    });
    const added = (await charges()).slice(0, (await charges()).length - before);
    expect(added).toEqual([
      expect.objectContaining({ kind: "charge", memo: "classification", amount_usd: -0.0005 }),
    ]);
  });

  it("refuses a question the balance cannot hold with the very message the API guide quotes", async () => {
    const poor = await server.createOrg("0.01");
    const response = await fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${poor.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({
        model: "sibyl-demo",
        messages: [{ role: "user", content: "Will it rain in Paris tomorrow?" }],
      }),
    });
    expect(response.status).toBe(402);
    const { error } = (await response.json()) as { error: { message: string } };
    const guide = readFileSync(new URL("../../docs/api.md", import.meta.url), "utf8");
    expect(guide.replace(/\s+/g, " ")).toContain(`\`${error.message}\``);
  });
});
