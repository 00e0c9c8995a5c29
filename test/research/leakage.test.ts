import type OpenAI from "openai";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { upstreamBody } from "../completions/support/sibyl-types.js";
import { startTestDatabase } from "./support/databases.js";
import { article, MODEL, type ResearchEnv, startResearchEnv } from "./support/env.js";
import { givenUrls } from "./support/report.js";
import { result } from "./support/scripted-provider.js";
import { type SearchServer, startSearchServer } from "./support/search-server.js";

const QUESTION =
  "Will the Senate pass the Clean Water Bill before May 2024? Answer with a probability between 0 and 1.";
const AS_OF = "2024-03-15";

/** On-topic articles, each carrying a marker so its text can be traced into the prompt. */
const ARTICLES = {
  clean: article({
    url: "https://news.example/senate-schedules-clean-water-vote",
    title: "Senate schedules a vote on the Clean Water Bill",
    text: "Senate leaders scheduled a floor vote on the Clean Water Bill. MARKER-CLEAN",
    publishedAt: "2024-03-10T09:00:00Z",
  }),
  publishedAfter: article({
    url: "https://news.example/senate-passes-clean-water-bill",
    title: "Senate passes the Clean Water Bill",
    text: "The Senate passed the Clean Water Bill 61 to 39. MARKER-PUBLISHED-AFTER",
    publishedAt: "2024-03-20T15:00:00Z",
  }),
  firstSeenAfter: article({
    url: "https://news.example/clean-water-bill-backdated",
    title: "Clean Water Bill clears the Senate",
    text: "The Clean Water Bill cleared the Senate. MARKER-FIRST-SEEN-AFTER",
    publishedAt: "2024-03-12T10:00:00Z",
    firstSeenAt: "2024-03-25T10:00:00Z",
  }),
  laterEventInText: article({
    url: "https://news.example/clean-water-bill-explainer",
    title: "Clean Water Bill explainer",
    text: "On April 2, 2024 the Senate passed the Clean Water Bill. MARKER-LATER-EVENT",
    publishedAt: "2024-03-11T08:00:00Z",
  }),
  asOfDay: article({
    url: "https://news.example/clean-water-bill-morning",
    title: "Clean Water Bill: Senate whip counts votes",
    text: "The Senate whip counted votes on the Clean Water Bill this morning. MARKER-AS-OF-DAY",
    publishedAt: "2024-03-15T08:00:00Z",
  }),
};

const LEAKED_MARKERS = [
  "MARKER-PUBLISHED-AFTER",
  "MARKER-FIRST-SEEN-AFTER",
  "MARKER-LATER-EVENT",
  "MARKER-AS-OF-DAY",
];

function citedUrls(response: OpenAI.ChatCompletion): string[] {
  return givenUrls(response);
}

function promptSent(env: ResearchEnv): string {
  const body = upstreamBody(env.fake.requests[0]?.body);
  return JSON.stringify(body.messages);
}

describe.each(["sqlite", "postgres"] as const)("as-of research on the archive (%s)", (kind) => {
  let env: ResearchEnv;
  let dispose: () => Promise<void>;
  let apiKey: string;

  beforeAll(async () => {
    const database = await startTestDatabase(kind);
    dispose = database.dispose;
    env = await startResearchEnv(database.url ? { databaseUrl: database.url } : {});
    apiKey = (await env.org()).apiKey;
    await env.archive(Object.values(ARTICLES));
  });
  afterEach(() => env.reset());
  afterAll(async () => {
    await env?.close();
    await dispose?.();
  });

  it("gives the model only what was knowable at the cutoff, and cites exactly that", async () => {
    const response = await env.client(apiKey).chat.completions.create({
      model: MODEL,
      messages: [{ role: "user", content: QUESTION }],
      research: true,
      prediction_date: AS_OF,
    } as OpenAI.ChatCompletionCreateParamsNonStreaming);

    expect(citedUrls(response)).toEqual([ARTICLES.clean.url]);
    const prompt = promptSent(env);
    expect(prompt).toContain("MARKER-CLEAN");
    for (const marker of LEAKED_MARKERS) expect(prompt).not.toContain(marker);
    expect(JSON.stringify(response)).not.toContain("MARKER-LATER-EVENT");
  });

  it("without an as-of date, finds the later articles too", async () => {
    const response = await env.client(apiKey).chat.completions.create({
      model: MODEL,
      messages: [{ role: "user", content: QUESTION }],
      research: true,
    } as OpenAI.ChatCompletionCreateParamsNonStreaming);
    expect(citedUrls(response)).toEqual(
      expect.arrayContaining([ARTICLES.publishedAfter.url, ARTICLES.laterEventInText.url]),
    );
    expect(promptSent(env)).toContain("MARKER-PUBLISHED-AFTER");
  });

  it("with a time in the as-of date, keeps what was published before it that day", async () => {
    const response = await env.client(apiKey).chat.completions.create({
      model: MODEL,
      messages: [{ role: "user", content: QUESTION }],
      research: true,
      prediction_date: "2024-03-15T12:00:00Z",
    } as OpenAI.ChatCompletionCreateParamsNonStreaming);
    expect(citedUrls(response).sort()).toEqual([ARTICLES.asOfDay.url, ARTICLES.clean.url].sort());
  });
});

describe("a provider whose own cutoff filter leaks", () => {
  let env: ResearchEnv;
  let apiKey: string;

  beforeAll(async () => {
    env = await startResearchEnv({
      research: { sources: { news_search: { provider: "scripted-news" } } },
    });
    apiKey = (await env.org()).apiKey;
  });
  afterEach(() => env.reset());
  afterAll(async () => {
    await env?.close();
  });

  it("has every later result dropped by the guard, counted and logged", async () => {
    env.news.script = {
      results: [
        result({
          url: "https://wire.example/after",
          title: "Senate passes the bill",
          publishedAt: new Date("2024-03-16T00:00:00Z"),
          snippet: "MARKER-PUBLISHED-AFTER",
        }),
        result({
          url: "https://wire.example/seen-after",
          title: "Bill clears the Senate",
          publishedAt: new Date("2024-03-01T00:00:00Z"),
          firstSeenAt: new Date("2024-03-18T00:00:00Z"),
          snippet: "MARKER-FIRST-SEEN-AFTER",
        }),
        result({
          url: "https://wire.example/undated",
          title: "Senate bill roundup",
          snippet: "MARKER-UNDATED",
        }),
        result({
          url: "https://wire.example/recap",
          title: "Recap",
          publishedAt: new Date("2024-03-02T00:00:00Z"),
          text: "Lawmakers met again on 3 April 2024 and passed it. MARKER-LATER-EVENT",
        }),
        result({
          url: "https://wire.example/preview?utm_source=feed",
          title: "What to watch in the Senate",
          publishedAt: new Date("2024-03-05T00:00:00Z"),
          snippet: "A vote is expected in the spring; targets run to 2030. MARKER-CLEAN",
        }),
      ],
    };
    const response = await env.client(apiKey).chat.completions.create({
      model: MODEL,
      messages: [{ role: "user", content: QUESTION }],
      research: { sources: ["news_search"] },
      prediction_date: AS_OF,
    } as OpenAI.ChatCompletionCreateParamsNonStreaming);

    expect(citedUrls(response)).toEqual(["https://wire.example/preview?utm_source=feed"]);
    const prompt = promptSent(env);
    expect(prompt).toContain("MARKER-CLEAN");
    for (const marker of [...LEAKED_MARKERS, "MARKER-UNDATED"]) {
      expect(prompt).not.toContain(marker);
    }
    expect(env.news.calls[0]?.cutoff?.toISOString()).toBe("2024-03-15T00:00:00.000Z");

    const drops = env.logs.filter((line) => line.level === "debug");
    expect(drops.map((line) => [line.details.url, line.details.reason])).toEqual([
      ["https://wire.example/after", "published_after_cutoff"],
      ["https://wire.example/seen-after", "first_seen_after_cutoff"],
      ["https://wire.example/undated", "no_date"],
      ["https://wire.example/recap", "later_date_shown"],
    ]);
    const metrics = await env.services.metrics.registry.metrics();
    expect(metrics).toContain(
      'sibyl_research_results_dropped_total{source="news_search",reason="later_date_shown"} 1',
    );
    expect(metrics).toContain(
      'sibyl_research_results_dropped_total{source="news_search",reason="no_date"} 1',
    );
  });
});

describe("an HTTP news provider on loopback (GDELT)", () => {
  let env: ResearchEnv;
  let search: SearchServer;
  let apiKey: string;

  beforeAll(async () => {
    search = await startSearchServer();
    env = await startResearchEnv({
      research: { sources: { news_search: { provider: "gdelt", base_url: search.url } } },
    });
    apiKey = (await env.org()).apiKey;
  });
  afterEach(() => {
    env.reset();
    search.requests.length = 0;
  });
  afterAll(async () => {
    await env?.close();
    await search?.close();
  });

  it("asks up to the cutoff, and still drops what the API returns from after it", async () => {
    search.gdeltArticles = [
      {
        url: "https://gdelt.example/late",
        title: "Senate passes Clean Water Bill MARKER-PUBLISHED-AFTER",
        seendate: "20240320T101500Z",
        domain: "gdelt.example",
      },
      {
        url: "https://gdelt.example/early",
        title: "Clean Water Bill heads to the Senate floor MARKER-CLEAN",
        seendate: "20240312T101500Z",
        domain: "gdelt.example",
      },
    ];
    const response = await env.client(apiKey).chat.completions.create({
      model: MODEL,
      messages: [{ role: "user", content: QUESTION }],
      research: true,
      prediction_date: AS_OF,
    } as OpenAI.ChatCompletionCreateParamsNonStreaming);

    expect(search.requests[0]?.query.get("enddatetime")).toBe("20240315000000");
    expect(citedUrls(response)).toEqual(["https://gdelt.example/early"]);
    const prompt = promptSent(env);
    expect(prompt).toContain("MARKER-CLEAN");
    expect(prompt).not.toContain("MARKER-PUBLISHED-AFTER");
  });
});
