import type OpenAI from "openai";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { sibylUsage } from "../completions/support/sibyl-types.js";
import { ManualClock } from "../support/manual-clock.js";
import { MODEL, type ResearchEnv, startResearchEnv } from "./support/env.js";
import { givenUrls, reportOf } from "./support/report.js";
import { result } from "./support/scripted-provider.js";

describe("the research cache", () => {
  const clock = new ManualClock(Date.UTC(2025, 5, 1));
  let env: ResearchEnv;
  let apiKey: string;

  beforeAll(async () => {
    env = await startResearchEnv({
      clock,
      research: {
        sources: { news_search: { provider: "scripted-news", cost_usd: "0.01" } },
        cache_seconds: 60,
      },
    });
    apiKey = (await env.org()).apiKey;
  });
  afterEach(() => env.reset());
  afterAll(async () => {
    await env?.close();
  });

  function ask(question: string, extra: Record<string, unknown> = {}) {
    return env.client(apiKey).chat.completions.create({
      model: MODEL,
      messages: [{ role: "user", content: question }],
      research: true,
      ...extra,
    } as OpenAI.ChatCompletionCreateParamsNonStreaming);
  }

  const found = {
    results: [
      result({
        url: "https://cache.example/a",
        title: "Harvest forecast",
        publishedAt: new Date("2024-01-10T00:00:00Z"),
        snippet: "A record harvest is expected.",
      }),
    ],
  };

  it("answers the same query under the same cutoff from the cache, billed all the same", async () => {
    env.news.script = found;
    const first = await ask("Will the wheat harvest set a record?", {
      prediction_date: "2024-02-01",
    });
    const second = await ask("Will the wheat harvest set a record?", {
      prediction_date: "2024-02-01",
    });
    expect(env.news.calls).toHaveLength(1);
    expect(reportOf(second)).toEqual(reportOf(first));
    expect(sibylUsage(second.usage).research_cost_usd).toBe(0.01);
    const metrics = await env.services.metrics.registry.metrics();
    expect(metrics).toContain(
      'sibyl_research_searches_total{source="news_search",outcome="cached"} 1',
    );

    await ask("Will the wheat harvest set a record?", { prediction_date: "2024-02-02" });
    expect(env.news.calls).toHaveLength(2);
  });

  it("searches again once the entry is older than cache_seconds", async () => {
    env.news.script = found;
    await ask("Will the rice harvest set a record?");
    clock.advanceSeconds(59);
    await ask("Will the rice harvest set a record?");
    expect(env.news.calls).toHaveLength(1);
    clock.advanceSeconds(2);
    await ask("Will the rice harvest set a record?");
    expect(env.news.calls).toHaveLength(2);
  });

  it("does not keep a failed search", async () => {
    env.news.script = { fail: "unreachable" };
    const failed = await ask("Will the barley harvest set a record?");
    expect(givenUrls(failed)).toEqual([]);
    env.news.script = found;
    const retried = await ask("Will the barley harvest set a record?");
    expect(env.news.calls).toHaveLength(2);
    expect(givenUrls(retried)).toHaveLength(1);
  });
});
