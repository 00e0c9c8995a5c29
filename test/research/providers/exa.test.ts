import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ExaSource } from "../../../src/research/providers/exa.js";
import { ResearchSourceError } from "../../../src/research/source.js";
import { type FakeProvider, json, startFakeProvider } from "./fake-provider.js";

const API_KEY = "exa-test-key-5f1c9e";
const CUTOFF = new Date("2024-03-14T12:00:00Z");

/** Shaped like the documented `POST /search` answer with text and highlights requested. */
const SEARCH_ANSWER = {
  requestId: "b5947044c4b78efa9552a7c89b306d95",
  resolvedSearchType: "neural",
  results: [
    {
      title: "Central bank holds rates steady",
      url: "https://www.example-finance.com/markets/2024/03/12/rates-hold",
      publishedDate: "2024-03-12T14:05:00.000Z",
      author: "A. Reporter",
      id: "https://www.example-finance.com/markets/2024/03/12/rates-hold",
      image: "https://www.example-finance.com/img/rates.jpg",
      favicon: "https://www.example-finance.com/favicon.ico",
      text: "The central bank kept its policy rate unchanged on Tuesday.\n\nOfficials signalled patience.",
      highlights: [
        "The central bank kept its policy rate unchanged on Tuesday.",
        "Officials signalled patience.",
      ],
      highlightScores: [0.46, 0.31],
    },
    {
      title: "Analysts expect a cut by summer",
      url: "https://news.example.net/analysts-cut",
      publishedDate: "2024-03-10",
      id: "https://news.example.net/analysts-cut",
      text: "<p>Most analysts now expect a cut.</p>",
      summary: "Analysts expect a rate cut by summer.",
    },
  ],
  searchType: "auto",
  costDollars: { total: 0.005 },
};

let fake: FakeProvider;
let source: ExaSource;

beforeAll(async () => {
  fake = await startFakeProvider();
  source = new ExaSource({ baseUrl: fake.url, apiKey: API_KEY, timeoutMs: 5_000 });
});

afterAll(async () => {
  await fake.close();
});

beforeEach(() => {
  fake.requests.length = 0;
  fake.answer(json(SEARCH_ANSWER));
});

describe("Exa request", () => {
  it("posts the query with the key in x-api-key, the cutoff as end published and crawl dates, and cached text only", async () => {
    await source.search("  Will the central bank cut rates?  ", { cutoff: CUTOFF, limit: 7 });

    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request?.method).toBe("POST");
    expect(request?.path).toBe("/search");
    expect([...(request?.query ?? [])]).toEqual([]);
    expect(request?.headers["x-api-key"]).toBe(API_KEY);
    expect(request?.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(request?.body ?? "")).toEqual({
      query: "Will the central bank cut rates?",
      numResults: 7,
      category: "news",
      contents: {
        text: { maxCharacters: 20_000 },
        highlights: { maxCharacters: 2_000 },
        maxAgeHours: -1,
        livecrawl: "never",
      },
      endPublishedDate: "2024-03-14T12:00:00.000Z",
      endCrawlDate: "2024-03-14T12:00:00.000Z",
    });
  });

  it("sends no date filter without a cutoff", async () => {
    await source.search("rates", { cutoff: null, limit: 5 });

    const body = JSON.parse(fake.requests[0]?.body ?? "");
    expect(body).not.toHaveProperty("endPublishedDate");
    expect(body).not.toHaveProperty("endCrawlDate");
    expect(body.contents).not.toHaveProperty("maxAgeHours");
    expect(body.contents).not.toHaveProperty("livecrawl");
  });

  it("asks for at most 100 results, Exa's maximum", async () => {
    await source.search("rates", { cutoff: null, limit: 500 });

    expect(JSON.parse(fake.requests[0]?.body ?? "").numResults).toBe(100);
  });

  it("refuses to be built without an API key", () => {
    expect(() => new ExaSource({ baseUrl: fake.url, apiKey: null, timeoutMs: 5_000 })).toThrow(
      "exa: an API key is required",
    );
  });
});

describe("Exa answer", () => {
  it("maps results: highlights (else summary) as the snippet, page text as the text", async () => {
    const results = await source.search("rates", { cutoff: CUTOFF, limit: 5 });

    expect(results).toEqual([
      {
        url: "https://www.example-finance.com/markets/2024/03/12/rates-hold",
        title: "Central bank holds rates steady",
        publishedAt: new Date("2024-03-12T14:05:00.000Z"),
        firstSeenAt: null,
        trust: "untrusted",
        snippet:
          "The central bank kept its policy rate unchanged on Tuesday. … Officials signalled patience.",
        text: "The central bank kept its policy rate unchanged on Tuesday.\n\nOfficials signalled patience.",
        source: "example-finance.com",
      },
      {
        url: "https://news.example.net/analysts-cut",
        title: "Analysts expect a cut by summer",
        // A bare day may mean any time that day, so its end is the bound kept.
        publishedAt: new Date("2024-03-10T23:59:59.999Z"),
        firstSeenAt: null,
        trust: "untrusted",
        snippet: "Analysts expect a rate cut by summer.",
        text: "Most analysts now expect a cut.",
        source: "news.example.net",
      },
    ]);
  });

  it("skips results without a usable url and reads impossible dates as null", async () => {
    fake.answer(
      json({
        results: [
          { title: "no url" },
          { url: "mailto:someone@example.com" },
          [],
          { url: "https://ok.example.com/a", publishedDate: "2024-13-01T00:00:00Z" },
          { url: "https://ok.example.com/b", publishedDate: "yesterday", highlights: "not a list" },
          { url: "https://ok.example.com/c", publishedDate: 1710417600 },
        ],
      }),
    );

    const results = await source.search("rates", { cutoff: CUTOFF, limit: 10 });

    expect(results.map((result) => [result.url, result.publishedAt, result.snippet])).toEqual([
      ["https://ok.example.com/a", null, null],
      ["https://ok.example.com/b", null, null],
      ["https://ok.example.com/c", null, null],
    ]);
  });

  it("reports a refusal with Exa's message and never the key it may echo", async () => {
    fake.answer(json({ requestId: "r1", error: `Invalid API key: ${API_KEY}` }, 401));

    const failure = source.search("rates", { cutoff: CUTOFF, limit: 5 });

    await expect(failure).rejects.toBeInstanceOf(ResearchSourceError);
    await expect(failure).rejects.toThrow("exa: HTTP 401: Invalid API key: [REDACTED]");
  });

  it("fails when the answer has no results list", async () => {
    fake.answer(json({ requestId: "r2" }));

    await expect(source.search("rates", { cutoff: CUTOFF, limit: 5 })).rejects.toThrow(
      "exa: reply has no results list",
    );
  });
});
