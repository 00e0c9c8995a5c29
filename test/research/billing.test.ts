import type OpenAI from "openai";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { usdToNanos } from "../../src/util/money.js";
import { sibylUsage } from "../completions/support/sibyl-types.js";
import { startTestDatabase } from "./support/databases.js";
import { MODEL, type ResearchEnv, startResearchEnv } from "./support/env.js";
import { givenUrls } from "./support/report.js";
import { result } from "./support/scripted-provider.js";

const SOURCES = {
  news_search: { provider: "scripted-news", cost_usd: "0.01" },
  web_search: { provider: "scripted-web", cost_usd: "0.02" },
};

const QUESTION = { role: "user" as const, content: "Will the central bank cut rates in June?" };

function found(site: string) {
  return {
    results: [
      result({
        url: `https://${site}.example/rates`,
        title: `Rates outlook (${site})`,
        publishedAt: new Date("2024-03-01T00:00:00Z"),
        snippet: `Analysts at ${site} expect a cut.`,
      }),
    ],
  };
}

describe.each(["sqlite", "postgres"] as const)("research billing (%s)", (kind) => {
  let env: ResearchEnv;
  let dispose: () => Promise<void>;

  beforeAll(async () => {
    const database = await startTestDatabase(kind);
    dispose = database.dispose;
    env = await startResearchEnv({
      // Every test searches afresh (the cache has its own tests).
      research: { sources: SOURCES, cache_seconds: 0 },
      ...(database.url ? { databaseUrl: database.url } : {}),
    });
  });
  afterEach(() => env.reset());
  afterAll(async () => {
    await env?.close();
    await dispose?.();
  });

  async function charges(organizationId: string) {
    const entries = await env.services.ledger.entries(organizationId);
    return entries
      .filter((entry) => entry.kind === "charge")
      .map((entry) => ({ memo: entry.memo, amount: Number(entry.amount_nanos) }));
  }

  function ask(apiKey: string, extra: Record<string, unknown>) {
    return env.client(apiKey).chat.completions.create({
      model: MODEL,
      messages: [QUESTION],
      ...extra,
    } as OpenAI.ChatCompletionCreateParamsNonStreaming);
  }

  it("charges one research event per source that answered, each its own ledger entry", async () => {
    const org = await env.org("10");
    env.news.script = found("news");
    env.web.script = found("web");
    const response = await ask(org.apiKey, { research: true });

    const usage = sibylUsage(response.usage);
    expect(usage.research_cost_usd).toBe(0.03);
    expect(usage.cost_usd).toBeCloseTo(usage.inference_cost_usd + 0.03, 9);
    expect(givenUrls(response)).toHaveLength(2);

    const inferenceNanos = usdToNanos(String(usage.inference_cost_usd));
    expect(await charges(org.organizationId)).toEqual([
      { memo: "research:news_search", amount: -usdToNanos("0.01") },
      { memo: "research:web_search", amount: -usdToNanos("0.02") },
      { memo: MODEL, amount: -inferenceNanos },
    ]);
    expect(await env.services.ledger.balance(org.organizationId)).toBe(
      usdToNanos("10") - usdToNanos("0.03") - inferenceNanos,
    );
    expect(await env.services.ledger.held(org.organizationId)).toEqual([]);
  });

  it("with an as-of date, research: true asks only the source that honours a cutoff", async () => {
    const org = await env.org("10");
    env.news.script = found("news");
    env.web.script = found("web");
    const response = await ask(org.apiKey, { research: true, prediction_date: "2024-03-15" });

    expect(env.news.calls).toHaveLength(1);
    expect(env.web.calls).toHaveLength(0);
    expect(sibylUsage(response.usage).research_cost_usd).toBe(0.01);
    expect((await charges(org.organizationId)).map((charge) => charge.memo)).toEqual([
      "research:news_search",
      MODEL,
    ]);
  });

  it("does not bill a source whose every result the guard dropped", async () => {
    const org = await env.org("10");
    env.news.script = {
      results: [
        result({
          url: "https://news.example/later-date",
          title: "Rates outlook",
          publishedAt: new Date("2024-03-01T00:00:00Z"),
          snippet: "A cut may come in June.",
        }),
        result({
          url: "https://news.example/published-later",
          title: "Rates decision",
          publishedAt: new Date("2024-03-20T00:00:00Z"),
          snippet: "The bank cut rates.",
        }),
      ],
    };
    const response = await ask(org.apiKey, { research: true, prediction_date: "2024-03-15" });

    expect(env.news.calls).toHaveLength(1);
    expect(givenUrls(response)).toEqual([]);
    expect(sibylUsage(response.usage).research_cost_usd).toBe(0);
    expect((await charges(org.organizationId)).map((charge) => charge.memo)).toEqual([MODEL]);
  });

  it("does not bill a source that failed, and still answers", async () => {
    const org = await env.org("10");
    env.news.script = found("news");
    env.web.script = { fail: "HTTP 503: upstream busy" };
    const response = await ask(org.apiKey, {
      research: { sources: ["news_search", "web_search"] },
    });

    expect(response.choices[0]?.message.content).toBeTruthy();
    expect(sibylUsage(response.usage).research_cost_usd).toBe(0.01);
    expect(givenUrls(response)).toEqual(["https://news.example/rates"]);
    expect((await charges(org.organizationId)).map((charge) => charge.memo)).toEqual([
      "research:news_search",
      MODEL,
    ]);
    const warning = env.logs.find((line) => line.level === "warn");
    expect(warning?.details).toMatchObject({
      source: "web_search",
      provider: "scripted-web",
      outcome: "failed",
    });
  });

  it("holds the research fees before anything is searched", async () => {
    // Enough for the inference's worst case, not for it plus 0.03 of research.
    const org = await env.org("0.02");
    const refused = await fetch(`${env.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${org.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ model: MODEL, messages: [QUESTION], research: true }),
    });
    expect(refused.status).toBe(402);
    expect(env.news.calls).toHaveLength(0);
    expect(env.web.calls).toHaveLength(0);
    expect(env.fake.requests).toHaveLength(0);

    const withoutResearch = await ask(org.apiKey, {});
    expect(withoutResearch.choices).toHaveLength(1);
  });

  it("returns the whole hold, research fees included, when the model fails", async () => {
    const org = await env.org("10");
    env.news.script = found("news");
    env.fake.setDefault({ status: 400, errorBody: { error: { message: "bad request" } } });
    const refused = await fetch(`${env.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${org.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ model: MODEL, messages: [QUESTION], research: true }),
    });
    expect(refused.status).toBe(400);
    expect(env.news.calls).toHaveLength(1);
    expect(await env.services.ledger.balance(org.organizationId)).toBe(usdToNanos("10"));
    expect(await charges(org.organizationId)).toEqual([]);
  });
});
