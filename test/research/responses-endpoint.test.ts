import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ResearchReport } from "../../src/completions/types.js";
import { upstreamBody } from "../completions/support/sibyl-types.js";
import { type Json, namedEvents, responseOf } from "../responses/support/responses.js";
import { MODEL, type ResearchEnv, startResearchEnv } from "./support/env.js";
import { result } from "./support/scripted-provider.js";

const CUTOFF = "2026-05-10T00:00:00.000Z";
const EARLIER = new Date("2026-05-01T08:00:00Z");

/** What the source answers: two results to give, four that must never reach the model. */
const RESULTS = [
  result({
    url: "https://news.example/committee-hearing",
    title: "Committee hears the water bill",
    source: "Example News",
    publishedAt: EARLIER,
    snippet: "The committee heard testimony on April 28. Kept-untrusted-marker.",
  }),
  result({
    url: "https://feeds.example/vote-scheduled",
    title: "Vote scheduled",
    publishedAt: EARLIER,
    firstSeenAt: new Date("2026-05-01T08:05:00Z"),
    trust: "trusted",
    snippet: "The Senate will vote on June 3, 2026. Kept-trusted-marker.",
  }),
  result({
    url: "https://news.example/2026/06/04/bill-passes",
    title: "Water bill",
    publishedAt: EARLIER,
    snippet: "Leak-url-marker.",
  }),
  result({
    url: "https://news.example/outcome",
    title: "Water bill\u00a0passes on June\u20093, 2026",
    publishedAt: EARLIER,
    snippet: "Leak-title-marker.",
  }),
  result({
    url: "https://news.example/after",
    title: "Water bill passes",
    publishedAt: new Date("2026-06-03T18:00:00Z"),
    snippet: "Leak-published-marker.",
  }),
  result({
    url: "https://news.example/undated",
    title: "Undated",
    snippet: "Leak-undated-marker.",
  }),
];
const LEAK_MARKERS = ["Leak-url-marker", "Leak-title-marker", "Leak-published-marker"];

const EXPECTED_SOURCES = [
  {
    number: 1,
    url: "https://news.example/committee-hearing",
    title: "Committee hears the water bill",
    published_at: "2026-05-01T08:00:00.000Z",
    first_seen_at: null,
    source: "news_search",
    provider: "scripted-news",
    trust: "untrusted",
  },
  {
    number: 2,
    url: "https://feeds.example/vote-scheduled",
    title: "Vote scheduled",
    published_at: "2026-05-01T08:00:00.000Z",
    first_seen_at: "2026-05-01T08:05:00.000Z",
    source: "news_search",
    provider: "scripted-news",
    trust: "trusted",
  },
];
const EXPECTED_DROPPED = { later_date_shown: 2, published_after_cutoff: 1, no_date: 1 };

describe("research through /v1/responses, as the model server received it", () => {
  let env: ResearchEnv;
  let apiKey: string;

  beforeAll(async () => {
    env = await startResearchEnv({
      research: {
        sources: { news_search: { provider: "scripted-news", max_results: 20 } },
        cache_seconds: 0,
      },
    });
    apiKey = (await env.org("100")).apiKey;
  });
  afterAll(async () => {
    await env?.close();
  });
  beforeEach(() => {
    env.reset();
    env.news.script = { results: RESULTS };
    env.fake.setDefault({ contents: ["The vote is set [2]; the hearing went well [1]."] });
  });

  function post(body: Json): Promise<Response> {
    return fetch(`${env.url}/v1/responses`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({
        model: MODEL,
        input: "Will the water bill pass?",
        research: true,
        prediction_date: CUTOFF,
        ...body,
      }),
    });
  }

  /** The research system message of the one request the model server received. */
  function receivedResearch(): string {
    expect(env.fake.requests).toHaveLength(1);
    const messages = upstreamBody(env.fake.requests[0]?.body).messages ?? [];
    const research = messages.filter((message) => message.content?.startsWith("Research results"));
    expect(research).toHaveLength(1);
    return research[0]?.content ?? "";
  }

  /** The prompt holds exactly the sources the report lists, numbered as it numbers them. */
  function expectPromptMatches(prompt: string, report: ResearchReport): void {
    for (const marker of LEAK_MARKERS) expect(prompt).not.toContain(marker);
    expect(prompt).not.toMatch(/June.?3, 2026\S* Leak|2026\/06\/04|passes on June/);
    expect(prompt).toContain("Kept-untrusted-marker");
    expect(prompt).toContain("Kept-trusted-marker");
    const numbered = [...prompt.matchAll(/^\[(\d+)\] (.*)\n(?:.*\n)?URL: (\S+)$/gm)].map(
      (match) => ({ number: Number(match[1]), title: match[2], url: match[3] }),
    );
    expect(numbered).toEqual(
      report.sources.map((source) => ({
        number: source.number,
        title: source.title,
        url: source.url,
      })),
    );
  }

  it("reports in the response object what the model was given, and what was dropped", async () => {
    const response = await post({});
    expect(response.status).toBe(200);
    const body = (await response.json()) as Json & { research: ResearchReport };
    expect(body.research).toEqual({
      as_of: CUTOFF,
      sources: EXPECTED_SOURCES,
      dropped: EXPECTED_DROPPED,
    });
    expectPromptMatches(receivedResearch(), body.research);
    const annotations = JSON.stringify(body.output);
    expect(annotations).toContain('"url":"https://feeds.example/vote-scheduled"');
    expect(annotations).not.toContain("news.example/outcome");
  });

  it("reports it in the stream's response.completed event alone", async () => {
    const response = await post({ stream: true });
    expect(response.status).toBe(200);
    const events = namedEvents(await response.text());
    const completed = events.filter((event) => event.event === "response.completed");
    expect(completed).toHaveLength(1);
    const report = responseOf(completed[0]).research as ResearchReport;
    const others = events.filter((event) => event.event !== "response.completed");
    expect(others.filter((event) => JSON.stringify(event.data).includes('"research"'))).toEqual([]);
    expect(report).toEqual({ as_of: CUTOFF, sources: EXPECTED_SOURCES, dropped: EXPECTED_DROPPED });
    expectPromptMatches(receivedResearch(), report);
    const streamed = JSON.stringify(events.map((event) => event.data));
    for (const url of ["news.example/outcome", "2026/06/04", "news.example/after"]) {
      expect(streamed).not.toContain(url);
    }
  });

  it("gives the model nothing when every result is later, and says so", async () => {
    env.news.script = { results: RESULTS.slice(2) };
    const response = await post({});
    expect(response.status).toBe(200);
    const body = (await response.json()) as Json & { research: ResearchReport };
    expect(body.research.sources).toEqual([]);
    expect(body.research.dropped).toEqual(EXPECTED_DROPPED);
    const messages = upstreamBody(env.fake.requests[0]?.body).messages ?? [];
    const prompt = messages.map((message) => message.content ?? "").join("\n");
    expect(prompt).toContain("It found no relevant sources dated at or before that moment.");
    for (const marker of LEAK_MARKERS) expect(prompt).not.toContain(marker);
  });
});
