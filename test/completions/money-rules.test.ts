import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Ledger } from "../../src/billing/ledger.js";
import { type CompletionsEnv, MODEL, startCompletionsEnv } from "./support/env.js";
import { balanceNanos, costNanos } from "./support/money.js";

interface SibylUsage {
  prompt_tokens: number;
  completion_tokens: number;
  cost_usd: number;
  classification_cost_usd?: number;
}

const nanos = (dollars: number) => Math.round(dollars * 1e9);

describe("money rules of a completion", () => {
  let env: CompletionsEnv;

  beforeAll(async () => {
    // Classification by the upstream model, so a classification is an upstream call.
    env = await startCompletionsEnv({ classificationModel: MODEL });
  });

  afterAll(async () => {
    await env.close();
  });

  beforeEach(() => env.fake.reset());

  async function chat(apiKey: string, body: Record<string, unknown>) {
    const response = await fetch(`${env.server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({
        model: MODEL,
        messages: [{ role: "user", content: "Will it?" }],
        ...body,
      }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it("refuses answer_type auto without credits before any model is called", async () => {
    const org = await env.org("0");
    const reply = await chat(org.apiKey, { answer_type: "auto" });
    expect(reply.status).toBe(402);
    expect(reply.body).toMatchObject({ error: { code: "insufficient_credits" } });
    expect(env.fake.requests).toHaveLength(0);
  });

  it("classifies an auto question once the credits are held, and charges for it", async () => {
    const org = await env.org("1");
    env.fake.enqueue(
      { contents: ["binary"], usage: { prompt_tokens: 50, completion_tokens: 1 } },
      { contents: ["Probability: 30%"], usage: { prompt_tokens: 100, completion_tokens: 20 } },
    );
    const reply = await chat(org.apiKey, { answer_type: "auto" });
    expect(reply.status).toBe(200);
    expect(env.fake.requests).toHaveLength(2);
    const usage = reply.body.usage as SibylUsage;
    expect(usage.classification_cost_usd).toBe(0.0005);
    expect(nanos(usage.cost_usd)).toBe(costNanos(100, 20) + nanos(0.0005));
    expect(await balanceNanos(env.server.url, org.apiKey)).toBe(1e9 - nanos(usage.cost_usd));
  });

  it("bills no more completion tokens than the request allowed", async () => {
    const org = await env.org("5");
    env.fake.enqueue({ usage: { prompt_tokens: 40, completion_tokens: 900_000 } });
    const reply = await chat(org.apiKey, { max_tokens: 10 });
    expect(reply.status).toBe(200);
    const usage = reply.body.usage as SibylUsage;
    expect(usage.completion_tokens).toBe(10);
    expect(nanos(usage.cost_usd)).toBe(costNanos(40, 10));
    expect(await balanceNanos(env.server.url, org.apiKey)).toBe(5e9 - costNanos(40, 10));
  });

  it("reports exactly what was charged when the cost outruns the balance", async () => {
    const org = await env.org("0.01");
    // Far more prompt tokens than estimated (a tokenizer that counts differently), within context.
    env.fake.enqueue({ usage: { prompt_tokens: 30_000, completion_tokens: 5 } });
    const reply = await chat(org.apiKey, { max_tokens: 5 });
    expect(reply.status).toBe(200);
    const usage = reply.body.usage as SibylUsage;
    expect(costNanos(30_000, 5)).toBeGreaterThan(nanos(0.01));
    expect(nanos(usage.cost_usd)).toBe(nanos(0.01));
    expect(await balanceNanos(env.server.url, org.apiKey)).toBe(0);
    const charges = (await env.server.services.ledger.entries(org.organizationId)).filter(
      (entry) => entry.kind === "charge",
    );
    expect(charges.map((entry) => -entry.amount_nanos)).toEqual([nanos(usage.cost_usd)]);
  });

  it.each([false, true])(
    "returns the hold when the settlement fails after the model answered (stream: %s)",
    async (stream) => {
      const org = await env.org("2");
      const ledger: Ledger = env.server.services.ledger;
      const settle = ledger.settle;
      ledger.settle = async () => {
        throw new Error("the database went away");
      };
      try {
        const response = await fetch(`${env.server.url}/v1/chat/completions`, {
          method: "POST",
          headers: { authorization: `Bearer ${org.apiKey}`, "content-type": "application/json" },
          body: JSON.stringify({
            model: MODEL,
            messages: [{ role: "user", content: "Will it?" }],
            stream,
          }),
        });
        const text = await response.text();
        if (stream) expect(text).toContain('"error"');
        else expect(response.status).toBeGreaterThanOrEqual(500);
      } finally {
        ledger.settle = settle;
      }
      expect(env.fake.requests).toHaveLength(1);
      expect(await ledger.held(org.organizationId)).toEqual([]);
      expect(await balanceNanos(env.server.url, org.apiKey)).toBe(2e9);
    },
  );
});
