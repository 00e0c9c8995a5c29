import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BraveSource } from "../../../src/research/providers/brave.js";
import { ResearchSourceError } from "../../../src/research/source.js";
import { type FakeProvider, json, startFakeProvider } from "./fake-provider.js";

const API_KEY = "BSA-test-key-77e0";

/** Shaped like Brave's `GET /res/v1/web/search` answer. */
const SEARCH_ANSWER = {
  type: "search",
  query: { original: "mars sample return mission", more_results_available: true },
  mixed: { type: "mixed", main: [{ type: "web", index: 0, all: false }] },
  web: {
    type: "search",
    family_friendly: true,
    results: [
      {
        type: "search_result",
        subtype: "generic",
        title: "Mars Sample Return - Example Space Agency",
        url: "https://space.example.gov/msr",
        is_source_local: false,
        is_source_both: false,
        description:
          "The <strong>Mars Sample Return</strong> campaign would bring samples to Earth &amp; labs.",
        page_age: "2024-01-10T16:20:00",
        age: "January 10, 2024",
        profile: {
          name: "Example Space Agency",
          url: "https://space.example.gov/msr",
          long_name: "space.example.gov",
          img: "https://imgs.search.brave.com/x.png",
        },
        language: "en",
        family_friendly: true,
        meta_url: {
          scheme: "https",
          netloc: "space.example.gov",
          hostname: "space.example.gov",
          favicon: "https://imgs.search.brave.com/f.png",
          path: "› msr",
        },
        extra_snippets: ["Budget review in 2024.", "Launch no earlier than 2028."],
      },
      {
        type: "search_result",
        title: "MSR delays explained",
        url: "https://blog.example.com/msr-delays",
        description: "Why the mission slipped.",
        age: "March 2, 2024",
        meta_url: { hostname: "blog.example.com" },
      },
      {
        type: "search_result",
        title: "MSR forum thread",
        url: "https://forum.example.net/t/msr",
        description: "Discussion.",
        age: "3 days ago",
      },
    ],
  },
};

let fake: FakeProvider;
let source: BraveSource;

beforeAll(async () => {
  fake = await startFakeProvider();
  source = new BraveSource({ baseUrl: fake.url, apiKey: API_KEY, timeoutMs: 5_000 });
});

afterAll(async () => {
  await fake.close();
});

beforeEach(() => {
  fake.requests.length = 0;
  fake.answer(json(SEARCH_ANSWER));
});

describe("Brave request", () => {
  it("gets web results with the key in X-Subscription-Token", async () => {
    await source.search("mars sample return mission", { cutoff: null, limit: 4 });

    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request?.method).toBe("GET");
    expect(request?.path).toBe("/res/v1/web/search");
    expect(Object.fromEntries(request?.query ?? [])).toEqual({
      q: "mars sample return mission",
      count: "4",
    });
    expect(request?.headers["x-subscription-token"]).toBe(API_KEY);
    expect(request?.headers.accept).toBe("application/json");
  });

  it("asks for at most 20 results and at most 50 words", async () => {
    await source.search(Array.from({ length: 60 }, (_, i) => `w${i}`).join(" "), {
      cutoff: null,
      limit: 100,
    });

    const query = fake.requests[0]?.query;
    expect(query?.get("count")).toBe("20");
    expect(query?.get("q")?.split(" ")).toHaveLength(50);
  });

  it("does not honour a cutoff and needs an API key", () => {
    expect(source.honoursCutoff).toBe(false);
    expect(() => new BraveSource({ baseUrl: fake.url, apiKey: null, timeoutMs: 5_000 })).toThrow(
      "brave: an API key is required",
    );
  });
});

describe("Brave answer", () => {
  it("maps results: highlights stripped, page_age (else a calendar age) as the date", async () => {
    const results = await source.search("mars sample return", { cutoff: null, limit: 5 });

    expect(results).toEqual([
      {
        url: "https://space.example.gov/msr",
        title: "Mars Sample Return - Example Space Agency",
        publishedAt: new Date("2024-01-10T16:20:00Z"),
        firstSeenAt: null,
        trust: "untrusted",
        snippet: "The Mars Sample Return campaign would bring samples to Earth & labs.",
        text: "Budget review in 2024. … Launch no earlier than 2028.",
        source: "Example Space Agency",
      },
      {
        url: "https://blog.example.com/msr-delays",
        title: "MSR delays explained",
        publishedAt: new Date("2024-03-02T23:59:59.999Z"),
        firstSeenAt: null,
        trust: "untrusted",
        snippet: "Why the mission slipped.",
        text: null,
        source: "blog.example.com",
      },
      {
        url: "https://forum.example.net/t/msr",
        title: "MSR forum thread",
        // A relative age counts from whenever Brave computed it: no date.
        publishedAt: null,
        firstSeenAt: null,
        trust: "untrusted",
        snippet: "Discussion.",
        text: null,
        source: "forum.example.net",
      },
    ]);
  });

  it("reads an answer without web results, Brave's answer when nothing matched, as none", async () => {
    fake.answer(json({ type: "search", query: { original: "zzzz" } }));

    await expect(source.search("zzzz", { cutoff: null, limit: 5 })).resolves.toEqual([]);
  });

  it("reports Brave's error detail", async () => {
    fake.answer(
      json(
        {
          type: "ErrorResponse",
          error: {
            id: "c1e5e5a0",
            status: 422,
            code: "VALIDATION",
            detail: "Unable to validate request parameter(s)",
            meta: { errors: [{ loc: ["query", "count"], msg: "too large" }] },
          },
          time: 1710417600,
        },
        422,
      ),
    );

    const failure = source.search("mars", { cutoff: null, limit: 5 });

    await expect(failure).rejects.toBeInstanceOf(ResearchSourceError);
    await expect(failure).rejects.toThrow(
      "brave: HTTP 422: Unable to validate request parameter(s)",
    );
  });

  it("fails when web results are not a list", async () => {
    fake.answer(json({ type: "search", web: { type: "search", results: "none" } }));

    await expect(source.search("mars", { cutoff: null, limit: 5 })).rejects.toThrow(
      "brave: reply has no web results list",
    );
  });
});
