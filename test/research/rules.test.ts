import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { MODEL, type ResearchEnv, startResearchEnv } from "./support/env.js";
import { givenUrls, reportOf } from "./support/report.js";
import { result } from "./support/scripted-provider.js";

const QUESTION = { role: "user" as const, content: "Will the strike end before the holidays?" };

interface Answer {
  status: number;
  body: {
    error?: { code: string; param: string | null; message: string };
    choices?: { message: { annotations?: unknown } }[];
    usage?: Record<string, unknown>;
  };
}

async function post(env: ResearchEnv, apiKey: string, path: string, body: object): Promise<Answer> {
  const response = await fetch(`${env.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Answer["body"] };
}

describe("research request rules (only news_search configured)", () => {
  let env: ResearchEnv;
  let apiKey: string;

  beforeAll(async () => {
    env = await startResearchEnv({
      research: { sources: { news_search: { provider: "scripted-news", timeout_ms: 300 } } },
    });
    apiKey = (await env.org()).apiKey;
  });
  afterEach(() => env.reset());
  afterAll(async () => {
    await env?.close();
  });

  const chat = (extra: object) => ({ model: MODEL, messages: [QUESTION], ...extra });

  it("refuses web_search with a prediction_date: 400 research_cutoff_unsupported", async () => {
    const answer = await post(
      env,
      apiKey,
      "/v1/chat/completions",
      chat({ research: { sources: ["news_search", "web_search"] }, prediction_date: "2024-01-01" }),
    );
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({
      code: "research_cutoff_unsupported",
      param: "research.sources",
    });
    expect(env.news.calls).toHaveLength(0);
    expect(env.fake.requests).toHaveLength(0);
  });

  it("refuses a source the server has not configured, naming those it has", async () => {
    const answer = await post(
      env,
      apiKey,
      "/v1/chat/completions",
      chat({ research: { sources: ["web_search"] } }),
    );
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({
      code: "research_source_unavailable",
      param: "research.sources",
    });
    expect(answer.body.error?.message).toContain("news_search");
    expect(env.fake.requests).toHaveLength(0);
  });

  it("refuses research on text completions, whose replies cannot cite sources", async () => {
    const answer = await post(env, apiKey, "/v1/completions", {
      model: MODEL,
      prompt: "Q: Will it rain?\nA:",
      research: true,
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: "research_unsupported", param: "research" });
    expect(env.news.calls).toHaveLength(0);
  });

  it("runs no research for an empty list of sources, and reports none", async () => {
    const answer = await post(
      env,
      apiKey,
      "/v1/chat/completions",
      chat({ research: { sources: [] } }),
    );
    expect(answer.status).toBe(200);
    expect(answer.body.choices?.[0]?.message.annotations).toBeUndefined();
    expect(answer.body).not.toHaveProperty("research");
    expect(answer.body.usage).not.toHaveProperty("research_cost_usd");
    expect(env.news.calls).toHaveLength(0);
  });

  it("searches for the question without its answer-format instructions", async () => {
    await post(env, apiKey, "/v1/chat/completions", {
      model: MODEL,
      messages: [
        { role: "system", content: "You are a forecaster." },
        {
          role: "user",
          content:
            "Question: Will the port strike end before December 20?\nRespond with <answer> tags. Format: a probability between 0 and 1.",
        },
      ],
      research: true,
    });
    expect(env.news.calls[0]?.query).toBe("Will the port strike end before December 20?");
    expect(env.news.calls[0]?.cutoff).toBeNull();
  });

  it("skips a source that does not answer within its time limit, and still answers", async () => {
    env.news.script = { hang: true };
    const answer = await post(env, apiKey, "/v1/chat/completions", chat({ research: true }));
    expect(answer.status).toBe(200);
    expect(givenUrls(answer.body)).toEqual([]);
    expect(answer.body.usage?.research_cost_usd).toBe(0);
    expect(env.logs.find((line) => line.level === "warn")?.details).toMatchObject({
      source: "news_search",
      outcome: "timeout",
    });
    const prompt = JSON.stringify(env.fake.requests[0]?.body);
    expect(prompt).toContain("found no relevant sources");
  });

  it("leaves out results that are not web pages", async () => {
    env.news.script = {
      results: [
        result({ url: "javascript:alert(1)", title: "x", publishedAt: new Date("2024-01-01") }),
        result({ url: "https://ok.example/a", title: "ok", publishedAt: new Date("2024-01-01") }),
      ],
    };
    const answer = await post(
      env,
      apiKey,
      "/v1/chat/completions",
      chat({ research: true, messages: [{ role: "user", content: "Will the pages load?" }] }),
    );
    expect(givenUrls(answer.body)).toEqual(["https://ok.example/a"]);
    expect(reportOf(answer.body).dropped).toEqual({ not_a_web_address: 1 });
  });
});

describe("research: true with an as-of date and no source able to honour it", () => {
  let env: ResearchEnv;
  let apiKey: string;

  beforeAll(async () => {
    env = await startResearchEnv({
      research: { sources: { news_search: { provider: "scripted-web" } } },
    });
    apiKey = (await env.org()).apiKey;
  });
  afterAll(async () => {
    await env?.close();
  });

  it("is refused rather than answered with unguarded research", async () => {
    const answer = await post(env, apiKey, "/v1/chat/completions", {
      model: MODEL,
      messages: [QUESTION],
      research: true,
      prediction_date: "2024-03-15",
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error?.code).toBe("research_cutoff_unsupported");
    expect(env.web.calls).toHaveLength(0);
  });
});
