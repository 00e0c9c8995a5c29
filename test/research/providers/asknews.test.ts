import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AskNewsSource } from "../../../src/research/providers/asknews.js";
import { ResearchSourceError } from "../../../src/research/source.js";
import { type FakeProvider, json, startFakeProvider } from "./fake-provider.js";

const API_KEY = "asknews-test-key-0b7d";
const CUTOFF = new Date("2024-03-14T12:00:00Z");
const CUTOFF_SECONDS = 1_710_417_600;

function article(overrides: Record<string, unknown>): Record<string, unknown> {
  return {
    article_url: "https://www.example-wire.com/world/election-2024-03-13",
    article_id: "5c0b8f4e-6a42-4e2f-9d2a-3f7e1e9a0c11",
    classification: "Politics",
    country: "US",
    source_id: "example-wire",
    page_rank: 12,
    domain_url: "example-wire.com",
    eng_title: "Election commission confirms runoff date",
    entities: { Person: [], Organization: ["Election Commission"], Location: [] },
    image_url: null,
    keywords: ["election", "runoff"],
    language: "en",
    pub_date: "2024-03-13T09:30:00+00:00",
    summary: "The election commission confirmed that the runoff will be held in April.",
    key_points: ["Runoff confirmed"],
    title: "Election commission confirms runoff date",
    sentiment: 0,
    centroid_distance: 0.12,
    cluster_probability: 0.9,
    markdown_citation: "[1] [Election commission confirms runoff date](https://…)",
    provocative: "low",
    reporting_voice: "Objective",
    as_string_key: "1",
    ...overrides,
  };
}

/** Shaped like `GET /v1/news/search?return_type=dicts`. */
const SEARCH_ANSWER = {
  as_dicts: [
    article({}),
    article({
      article_url: "https://noticias.example.es/elecciones",
      source_id: "noticias-example",
      domain_url: "noticias.example.es",
      title: "La comisión electoral confirma la segunda vuelta",
      eng_title: "Electoral commission confirms the runoff",
      pub_date: "2024-03-12T18:00:00Z",
      summary: "Resumen &quot;traducido&quot;.",
      full_text: "Full text of the article.",
      language: "es",
    }),
  ],
  as_string: null,
  offset: 2,
};

let fake: FakeProvider;
let source: AskNewsSource;

beforeAll(async () => {
  fake = await startFakeProvider();
  source = new AskNewsSource({ baseUrl: fake.url, apiKey: API_KEY, timeoutMs: 5_000 });
});

afterAll(async () => {
  await fake.close();
});

beforeEach(() => {
  fake.requests.length = 0;
  fake.answer(json(SEARCH_ANSWER));
});

describe("AskNews request", () => {
  it("searches the historical archive up to the cutoff, by crawl date, with a bearer key", async () => {
    await source.search("Will the runoff be held in April?", { cutoff: CUTOFF, limit: 8 });

    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request?.method).toBe("GET");
    expect(request?.path).toBe("/v1/news/search");
    expect(request?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(Object.fromEntries(request?.query ?? [])).toEqual({
      query: "Will the runoff be held in April?",
      n_articles: "8",
      return_type: "dicts",
      historical: "true",
      start_timestamp: String(CUTOFF_SECONDS - 90 * 86_400),
      end_timestamp: String(CUTOFF_SECONDS),
      time_filter: "crawl_date",
    });
  });

  it("sends no time bounds without a cutoff", async () => {
    await source.search("runoff", { cutoff: null, limit: 5 });

    const query = fake.requests[0]?.query;
    expect(query?.get("historical")).toBe("true");
    expect(query?.has("start_timestamp")).toBe(false);
    expect(query?.has("end_timestamp")).toBe(false);
    expect(query?.has("time_filter")).toBe(false);
  });

  it("refuses to be built without an API key", () => {
    expect(() => new AskNewsSource({ baseUrl: fake.url, apiKey: null, timeoutMs: 5_000 })).toThrow(
      "asknews: an API key is required",
    );
  });
});

describe("AskNews answer", () => {
  it("maps articles: English title, pub_date, summary as the snippet, the domain as the source", async () => {
    const results = await source.search("runoff", { cutoff: CUTOFF, limit: 5 });

    expect(results).toEqual([
      {
        url: "https://www.example-wire.com/world/election-2024-03-13",
        title: "Election commission confirms runoff date",
        publishedAt: new Date("2024-03-13T09:30:00Z"),
        firstSeenAt: null,
        trust: "untrusted",
        snippet: "The election commission confirmed that the runoff will be held in April.",
        text: null,
        source: "example-wire.com",
      },
      {
        url: "https://noticias.example.es/elecciones",
        title: "Electoral commission confirms the runoff",
        publishedAt: new Date("2024-03-12T18:00:00Z"),
        firstSeenAt: null,
        trust: "untrusted",
        snippet: 'Resumen "traducido".',
        text: "Full text of the article.",
        source: "noticias.example.es",
      },
    ]);
  });

  it("reads a null as_dicts as no articles", async () => {
    fake.answer(json({ as_dicts: null, as_string: null, offset: null }));

    await expect(source.search("runoff", { cutoff: CUTOFF, limit: 5 })).resolves.toEqual([]);
  });

  it("skips articles without a usable url and keeps those with unreadable fields", async () => {
    fake.answer(
      json({
        as_dicts: [
          article({ article_url: null }),
          article({ article_url: "not a url" }),
          article({
            article_url: "https://ok.example.com/1",
            eng_title: null,
            title: "Fallback title",
            pub_date: "2024-02-30T10:00:00Z",
            summary: 12,
            domain_url: null,
            source_id: null,
          }),
        ],
      }),
    );

    const results = await source.search("runoff", { cutoff: CUTOFF, limit: 5 });

    expect(results).toEqual([
      {
        url: "https://ok.example.com/1",
        title: "Fallback title",
        publishedAt: null,
        firstSeenAt: null,
        trust: "untrusted",
        snippet: null,
        text: null,
        source: "ok.example.com",
      },
    ]);
  });

  it("reports a validation refusal with FastAPI's messages", async () => {
    fake.answer(
      json(
        {
          detail: [
            { loc: ["query", "n_articles"], msg: "Input should be less than or equal to 10" },
          ],
        },
        422,
      ),
    );

    const failure = source.search("runoff", { cutoff: CUTOFF, limit: 50 });

    await expect(failure).rejects.toBeInstanceOf(ResearchSourceError);
    await expect(failure).rejects.toThrow(
      "asknews: HTTP 422: Input should be less than or equal to 10",
    );
  });

  it("fails when as_dicts is not a list", async () => {
    fake.answer(json({ as_dicts: { article_url: "https://ok.example.com/1" } }));

    await expect(source.search("runoff", { cutoff: CUTOFF, limit: 5 })).rejects.toThrow(
      "asknews: reply has no as_dicts list",
    );
  });
});
