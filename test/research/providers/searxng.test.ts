import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SearxngSource } from "../../../src/research/providers/searxng.js";
import { ResearchSourceError } from "../../../src/research/source.js";
import { type FakeProvider, json, startFakeProvider, text } from "./fake-provider.js";

/** Shaped like SearXNG's `/search?format=json` answer. */
const SEARCH_ANSWER = {
  query: "solar eclipse 2024 path",
  number_of_results: 0,
  results: [
    {
      url: "https://science.example.gov/eclipse-2024/",
      title: "2024 Total Solar Eclipse",
      content: "On April 8, 2024, a total solar eclipse will cross <b>North America</b>.",
      publishedDate: "2024-01-15T00:00:00",
      thumbnail: null,
      engine: "duckduckgo",
      template: "default.html",
      parsed_url: ["https", "science.example.gov", "/eclipse-2024/", "", "", ""],
      engines: ["duckduckgo", "brave"],
      positions: [1, 2],
      score: 4.0,
      category: "general",
    },
    {
      url: "https://travel.example.com/eclipse-path",
      title: "Where to watch the eclipse",
      content: "Cities on the path of totality.",
      publishedDate: null,
      engine: "brave",
      engines: ["brave"],
      positions: [2],
      score: 1.0,
      category: "general",
    },
    {
      url: "https://blog.example.org/eclipse",
      title: "Eclipse glasses",
      content: "",
      engine: "bing",
      engines: ["bing"],
      positions: [3],
      score: 0.3,
      category: "general",
    },
  ],
  answers: [],
  corrections: [],
  infoboxes: [],
  suggestions: ["eclipse map"],
  unresponsive_engines: [],
};

let fake: FakeProvider;
let source: SearxngSource;

beforeAll(async () => {
  fake = await startFakeProvider();
  // Instances are often served below a path prefix.
  source = new SearxngSource({ baseUrl: `${fake.url}/searx/`, apiKey: null, timeoutMs: 5_000 });
});

afterAll(async () => {
  await fake.close();
});

beforeEach(() => {
  fake.requests.length = 0;
  fake.answer(json(SEARCH_ANSWER));
});

describe("SearXNG request", () => {
  it("asks the instance's search path for JSON, with no date filter even given a cutoff", async () => {
    await source.search("solar eclipse 2024 path", {
      cutoff: new Date("2024-03-14T12:00:00Z"),
      limit: 5,
    });

    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request?.method).toBe("GET");
    expect(request?.path).toBe("/searx/search");
    expect(Object.fromEntries(request?.query ?? [])).toEqual({
      q: "solar eclipse 2024 path",
      format: "json",
    });
    expect(request?.headers.accept).toBe("application/json");
    expect(request?.headers.authorization).toBeUndefined();
  });

  it("does not honour a cutoff", () => {
    expect(source.honoursCutoff).toBe(false);
  });
});

describe("SearXNG answer", () => {
  it("maps results with HTML removed from the content and optional dates", async () => {
    const results = await source.search("eclipse", { cutoff: null, limit: 10 });

    expect(results).toEqual([
      {
        url: "https://science.example.gov/eclipse-2024/",
        title: "2024 Total Solar Eclipse",
        publishedAt: new Date("2024-01-15T00:00:00Z"),
        firstSeenAt: null,
        trust: "untrusted",
        snippet: "On April 8, 2024, a total solar eclipse will cross North America.",
        text: null,
        source: "science.example.gov",
      },
      {
        url: "https://travel.example.com/eclipse-path",
        title: "Where to watch the eclipse",
        publishedAt: null,
        firstSeenAt: null,
        trust: "untrusted",
        snippet: "Cities on the path of totality.",
        text: null,
        source: "travel.example.com",
      },
      {
        url: "https://blog.example.org/eclipse",
        title: "Eclipse glasses",
        publishedAt: null,
        firstSeenAt: null,
        trust: "untrusted",
        snippet: null,
        text: null,
        source: "blog.example.org",
      },
    ]);
  });

  it("returns at most `limit` results", async () => {
    const results = await source.search("eclipse", { cutoff: null, limit: 2 });

    expect(results).toHaveLength(2);
  });

  it("explains a 403, SearXNG's answer when the JSON format is not enabled", async () => {
    fake.answer(text("<html><body><h1>403 Forbidden</h1></body></html>", 403, "text/html"));

    const failure = source.search("eclipse", { cutoff: null, limit: 5 });

    await expect(failure).rejects.toBeInstanceOf(ResearchSourceError);
    await expect(failure).rejects.toThrow(
      "searxng: HTTP 403: 403 Forbidden; is `json` listed in search.formats of settings.yml?",
    );
  });

  it("skips malformed results", async () => {
    fake.answer(
      json({
        results: [
          { title: "no url" },
          { url: "https://ok.example.com/", title: ["x"], publishedDate: "2024-03-14T25:00:00" },
          5,
        ],
      }),
    );

    const results = await source.search("eclipse", { cutoff: null, limit: 5 });

    expect(results).toEqual([
      {
        url: "https://ok.example.com/",
        title: null,
        publishedAt: null,
        firstSeenAt: null,
        trust: "untrusted",
        snippet: null,
        text: null,
        source: "ok.example.com",
      },
    ]);
  });
});
