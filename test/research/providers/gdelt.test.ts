import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GdeltSource } from "../../../src/research/providers/gdelt.js";
import { gdeltQuery } from "../../../src/research/providers/gdelt-query.js";
import { ResearchSourceError } from "../../../src/research/source.js";
import { type FakeProvider, json, startFakeProvider, text } from "./fake-provider.js";

const CUTOFF = new Date("2024-03-14T12:00:00Z");

/** Shaped like a DOC 2.0 `mode=artlist&format=json` answer. */
const ARTLIST = {
  articles: [
    {
      url: "https://www.example-news.com/world/2024/03/13/budget-vote.html",
      url_mobile: "https://m.example-news.com/world/2024/03/13/budget-vote.html",
      title: "Parliament set to vote on budget bill",
      seendate: "20240313T081500Z",
      socialimage: "https://www.example-news.com/images/budget.jpg",
      domain: "example-news.com",
      language: "English",
      sourcecountry: "United Kingdom",
    },
    {
      url: "https://daily.example.org/politics/budget-talks",
      url_mobile: "",
      title: "Budget talks continue &amp; stall",
      seendate: "20240312T230000Z",
      socialimage: "",
      domain: "daily.example.org",
      language: "English",
      sourcecountry: "United States",
    },
  ],
};

let fake: FakeProvider;
let source: GdeltSource;

beforeAll(async () => {
  fake = await startFakeProvider();
  source = new GdeltSource({ baseUrl: fake.url, apiKey: null, timeoutMs: 5_000 });
});

afterAll(async () => {
  await fake.close();
});

beforeEach(() => {
  fake.requests.length = 0;
  fake.answer(json(ARTLIST));
});

describe("GDELT DOC 2.0 request", () => {
  it("asks for an article list in JSON, ranked by relevance, within 90 days before the cutoff", async () => {
    await source.search("Will parliament pass the budget bill?", { cutoff: CUTOFF, limit: 5 });

    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request?.method).toBe("GET");
    expect(request?.path).toBe("/api/v2/doc/doc");
    expect(Object.fromEntries(request?.query ?? [])).toEqual({
      query: "(parliament OR pass OR budget OR bill)",
      mode: "artlist",
      format: "json",
      maxrecords: "5",
      sort: "hybridrel",
      startdatetime: "20231215120000",
      enddatetime: "20240314120000",
    });
    expect(request?.headers.authorization).toBeUndefined();
    // Spaces go out as %20, which every server decodes (not all read `+` as a space).
    expect(request?.rawQuery).toMatch(
      /^query=\(parliament%20OR%20pass%20OR%20budget%20OR%20bill\)&mode=artlist&/,
    );
  });

  it("sends no date range without a cutoff (GDELT then searches its default recent window)", async () => {
    await source.search("budget", { cutoff: null, limit: 10 });

    const query = fake.requests[0]?.query;
    expect(query?.get("query")).toBe("budget");
    expect(query?.has("startdatetime")).toBe(false);
    expect(query?.has("enddatetime")).toBe(false);
  });

  it("asks for at most 250 records, GDELT's maximum", async () => {
    await source.search("budget", { cutoff: null, limit: 1_000 });

    expect(fake.requests[0]?.query.get("maxrecords")).toBe("250");
  });

  it("starts no earlier than 1 January 2017, where GDELT's index begins", async () => {
    await source.search("budget", { cutoff: new Date("2017-02-01T00:00:00Z"), limit: 5 });

    expect(fake.requests[0]?.query.get("startdatetime")).toBe("20170101000000");
    expect(fake.requests[0]?.query.get("enddatetime")).toBe("20170201000000");
  });

  it("returns nothing without asking for a cutoff before GDELT's index begins", async () => {
    const results = await source.search("budget", {
      cutoff: new Date("2016-06-01T00:00:00Z"),
      limit: 5,
    });

    expect(results).toEqual([]);
    expect(fake.requests).toHaveLength(0);
  });

  it("returns nothing without asking when the question has no searchable word", async () => {
    const results = await source.search("Will it be so? Yes or no.", { cutoff: CUTOFF, limit: 5 });

    expect(results).toEqual([]);
    expect(fake.requests).toHaveLength(0);
  });
});

describe("GDELT DOC 2.0 answer", () => {
  it("maps articles: seendate as the publication bound, domain as the source, no snippet", async () => {
    const results = await source.search("budget", { cutoff: CUTOFF, limit: 5 });

    expect(results).toEqual([
      {
        url: "https://www.example-news.com/world/2024/03/13/budget-vote.html",
        title: "Parliament set to vote on budget bill",
        publishedAt: new Date("2024-03-13T08:15:00Z"),
        firstSeenAt: null,
        trust: "untrusted",
        snippet: null,
        text: null,
        source: "example-news.com",
      },
      {
        url: "https://daily.example.org/politics/budget-talks",
        title: "Budget talks continue & stall",
        publishedAt: new Date("2024-03-12T23:00:00Z"),
        firstSeenAt: null,
        trust: "untrusted",
        snippet: null,
        text: null,
        source: "daily.example.org",
      },
    ]);
  });

  it("returns at most `limit` articles even when GDELT sends more", async () => {
    const results = await source.search("budget", { cutoff: CUTOFF, limit: 1 });

    expect(results.map((result) => result.url)).toEqual([ARTLIST.articles[0]?.url]);
  });

  it("reads `{}`, GDELT's answer when nothing matched, as no results", async () => {
    fake.answer(text("{}", 200, "application/json"));

    await expect(source.search("budget", { cutoff: CUTOFF, limit: 5 })).resolves.toEqual([]);
  });

  it("reads titles holding raw control characters, which GDELT passes through unescaped", async () => {
    const body = JSON.stringify(ARTLIST).replace("Parliament set", "Parliament\tset\u0001");
    fake.answer(text(body, 200, "application/json"));

    const results = await source.search("budget", { cutoff: CUTOFF, limit: 5 });

    expect(results[0]?.title).toBe("Parliament set to vote on budget bill");
  });

  it("turns a plain-text refusal sent with HTTP 200 into an error carrying GDELT's words", async () => {
    fake.answer(
      text(
        "Please limit requests to one every 5 seconds or contact kalev.leetaru5@gmail.com for larger queries.",
        200,
        "text/html",
      ),
    );

    const failure = source.search("budget", { cutoff: CUTOFF, limit: 5 });

    await expect(failure).rejects.toBeInstanceOf(ResearchSourceError);
    await expect(failure).rejects.toThrow(
      /^gdelt: query refused: Please limit requests to one every 5 seconds/,
    );
  });

  it("turns a refusal about the query into an error", async () => {
    fake.answer(text("The specified phrase is too short.\n", 200, "text/html; charset=utf-8"));

    await expect(source.search("budget", { cutoff: CUTOFF, limit: 5 })).rejects.toThrow(
      "gdelt: query refused: The specified phrase is too short.",
    );
  });

  it("skips malformed articles and keeps the rest, with unreadable dates as null", async () => {
    fake.answer(
      json({
        articles: [
          "not an article",
          null,
          { title: "no url", seendate: "20240313T081500Z" },
          { url: "ftp://files.example.com/a.txt", title: "not http" },
          { url: "javascript:alert(1)", title: "script" },
          { url: "/relative/path", title: "relative" },
          { url: 42, title: "number" },
          { url: "https://a.example.com/1", title: 7, seendate: "2024-03-13" },
          { url: "https://a.example.com/2", title: "", seendate: "20240230T120000Z" },
          { url: "https://a.example.com/3", seendate: "20240313T250000Z", domain: ["x"] },
          { url: "https://a.example.com/4", title: "fine", seendate: "20240313T081500Z" },
        ],
      }),
    );

    const results = await source.search("budget", { cutoff: CUTOFF, limit: 20 });

    expect(results).toEqual([
      expect.objectContaining({ url: "https://a.example.com/1", title: null, publishedAt: null }),
      expect.objectContaining({ url: "https://a.example.com/2", title: null, publishedAt: null }),
      expect.objectContaining({
        url: "https://a.example.com/3",
        publishedAt: null,
        source: "a.example.com",
      }),
      expect.objectContaining({
        url: "https://a.example.com/4",
        title: "fine",
        publishedAt: new Date("2024-03-13T08:15:00Z"),
      }),
    ]);
  });

  it("fails on JSON of the wrong shape", async () => {
    fake.answer(json({ articles: { url: "https://a.example.com/1" } }));

    await expect(source.search("budget", { cutoff: CUTOFF, limit: 5 })).rejects.toThrow(
      "gdelt: reply has no articles list",
    );
  });
});

describe("GDELT query", () => {
  it("keeps distinctive words of three or more characters, once each, ORed", () => {
    expect(gdeltQuery("Will the EU's GDP grow by 2% in 2024, and will GDP beat 2023?")).toBe(
      "(gdp OR grow OR 2024 OR beat OR 2023)",
    );
  });

  it("drops GDELT's operator characters so a question cannot inject syntax", () => {
    expect(gdeltQuery('domain:example.com -"quoted phrase" (near10:x)')).toBe(
      "(domain OR example OR com OR quoted OR phrase OR near10)",
    );
  });

  it("keeps at most eight words", () => {
    expect(gdeltQuery("alpha bravo charlie delta echo foxtrot golf hotel india juliet")).toBe(
      "(alpha OR bravo OR charlie OR delta OR echo OR foxtrot OR golf OR hotel)",
    );
  });

  it("keeps letters of any script", () => {
    expect(gdeltQuery("Élection présidentielle")).toBe("(élection OR présidentielle)");
  });
});
