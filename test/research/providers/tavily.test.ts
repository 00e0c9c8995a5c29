import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { TavilySource } from "../../../src/research/providers/tavily.js";
import { ResearchSourceError } from "../../../src/research/source.js";
import { type FakeProvider, json, startFakeProvider } from "./fake-provider.js";

const API_KEY = "tvly-test-key-8c2a41";

/** Shaped like Tavily's `POST /search` answer with `include_raw_content`. */
const SEARCH_ANSWER = {
  query: "Who will win the 2024 league title?",
  follow_up_questions: null,
  answer: null,
  images: [],
  results: [
    {
      title: "League table: title race tightens",
      url: "https://sport.example.com/league/title-race",
      content: "With five games left, two clubs are level on points.",
      score: 0.87,
      raw_content: "# Title race\n\nWith five games left, two clubs are level on points.",
      published_date: "Thu, 14 Mar 2024 09:12:33 GMT",
    },
    {
      title: "Season preview",
      url: "https://fans.example.org/preview",
      content: "Our predictions for the season.",
      score: 0.55,
      raw_content: null,
    },
  ],
  response_time: 1.09,
};

let fake: FakeProvider;
let source: TavilySource;

beforeAll(async () => {
  fake = await startFakeProvider();
  source = new TavilySource({ baseUrl: fake.url, apiKey: API_KEY, timeoutMs: 5_000 });
});

afterAll(async () => {
  await fake.close();
});

beforeEach(() => {
  fake.requests.length = 0;
  fake.answer(json(SEARCH_ANSWER));
});

describe("Tavily request", () => {
  it("posts the query with a bearer key, asking for page text and no generated answer", async () => {
    await source.search("Who will win the 2024 league title?", { cutoff: null, limit: 6 });

    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request?.method).toBe("POST");
    expect(request?.path).toBe("/search");
    expect(request?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request?.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(request?.body ?? "")).toEqual({
      query: "Who will win the 2024 league title?",
      max_results: 6,
      search_depth: "basic",
      topic: "general",
      include_answer: false,
      include_raw_content: true,
    });
  });

  it("asks for at most 20 results and cuts long queries at a word to 400 characters", async () => {
    const longQuery = `${"word ".repeat(100)}end`;

    await source.search(longQuery, { cutoff: new Date("2024-03-14T00:00:00Z"), limit: 50 });

    const body = JSON.parse(fake.requests[0]?.body ?? "");
    expect(body.max_results).toBe(20);
    expect(body.query).toBe("word ".repeat(80).trim());
    expect(body).not.toHaveProperty("end_date");
  });

  it("does not honour a cutoff and needs an API key", () => {
    expect(source.honoursCutoff).toBe(false);
    expect(() => new TavilySource({ baseUrl: fake.url, apiKey: null, timeoutMs: 5_000 })).toThrow(
      "tavily: an API key is required",
    );
  });
});

describe("Tavily answer", () => {
  it("maps results: content as the snippet, raw content as the text, RFC 1123 dates", async () => {
    const results = await source.search("league title", { cutoff: null, limit: 5 });

    expect(results).toEqual([
      {
        url: "https://sport.example.com/league/title-race",
        title: "League table: title race tightens",
        publishedAt: new Date("2024-03-14T09:12:33Z"),
        firstSeenAt: null,
        trust: "untrusted",
        snippet: "With five games left, two clubs are level on points.",
        text: "# Title race\n\nWith five games left, two clubs are level on points.",
        source: "sport.example.com",
      },
      {
        url: "https://fans.example.org/preview",
        title: "Season preview",
        publishedAt: null,
        firstSeenAt: null,
        trust: "untrusted",
        snippet: "Our predictions for the season.",
        text: null,
        source: "fans.example.org",
      },
    ]);
  });

  it("reports Tavily's error detail without the key", async () => {
    fake.answer(json({ detail: { error: `Unauthorized: invalid API key ${API_KEY}` } }, 401));

    const failure = source.search("league title", { cutoff: null, limit: 5 });

    await expect(failure).rejects.toBeInstanceOf(ResearchSourceError);
    await expect(failure).rejects.toThrow(
      "tavily: HTTP 401: Unauthorized: invalid API key [REDACTED]",
    );
  });

  it("skips malformed results and reads unknown date formats as null", async () => {
    fake.answer(
      json({
        results: [
          { url: "https://ok.example.com/1", published_date: "14/03/2024" },
          { url: "https://ok.example.com/2", published_date: "Thu, 31 Feb 2024 09:12:33 GMT" },
          { url: "https://ok.example.com/3", published_date: "Thu, 14 Mar 2024 09:12:33 +0100" },
          { url: "ok.example.com/4" },
        ],
      }),
    );

    const results = await source.search("league title", { cutoff: null, limit: 5 });

    expect(results.map((result) => [result.url, result.publishedAt])).toEqual([
      ["https://ok.example.com/1", null],
      ["https://ok.example.com/2", null],
      ["https://ok.example.com/3", new Date("2024-03-14T08:12:33Z")],
    ]);
  });
});
