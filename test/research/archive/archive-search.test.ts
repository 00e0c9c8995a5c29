import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  ARCHIVE_TEXT_CHARACTERS,
  ArchiveSource,
} from "../../../src/research/archive/archive-source.js";
import { ArchiveStore, type NewArticle } from "../../../src/research/archive/archive-store.js";
import { ResearchSourceError } from "../../../src/research/source.js";
import { type ArchiveDatabase, BOTH_ARCHIVES } from "./archive-databases.js";

const DAY = 86_400_000;
const MARCH_1 = Date.UTC(2024, 2, 1);
const CUTOFF = new Date(Date.UTC(2024, 2, 15));
const clock = { now: () => Date.UTC(2025, 0, 1) };

function article(overrides: Partial<NewArticle> & { url: string }): NewArticle {
  return {
    title: "Untitled",
    source: null,
    summary: null,
    text: "",
    publishedAt: MARCH_1,
    firstSeenAt: MARCH_1,
    origin: "import",
    ...overrides,
  };
}

const urls = (results: { url: string }[]) => results.map((result) => result.url);

describe.each(BOTH_ARCHIVES)("news archive on $name", (kind) => {
  let database: ArchiveDatabase;
  let store: ArchiveStore;
  let archive: ArchiveSource;

  beforeEach(async () => {
    database = await kind.create();
    store = new ArchiveStore(database.handle.db, clock);
    archive = new ArchiveSource(database.handle.db);
  });

  afterEach(async () => {
    await database.dispose();
  });

  it("declares itself a cutoff-honouring source", () => {
    expect(archive.provider).toBe("archive");
    expect(archive.honoursCutoff).toBe(true);
  });

  it("finds nothing in an empty archive", async () => {
    expect(await archive.search("senate budget vote", { cutoff: null, limit: 10 })).toEqual([]);
    expect(await archive.search("senate budget vote", { cutoff: CUTOFF, limit: 10 })).toEqual([]);
  });

  it("ranks title matches and articles matching more words first, and skips the rest", async () => {
    await store.insertMany([
      article({
        url: "https://news.example/text-only",
        title: "Weekly roundup",
        text: "Among other things, the senate discussed a budget in committee.",
      }),
      article({
        url: "https://news.example/unrelated",
        title: "Harvest festival opens",
        text: "Farmers gathered for the annual harvest festival with music and pies.",
      }),
      article({
        url: "https://news.example/title",
        title: "Senate passes budget after marathon vote",
        text: "Lawmakers approved the spending plan late on Tuesday.",
      }),
      article({
        url: "https://news.example/one-word",
        title: "Local news",
        text: "The budget for the school library grew this year.",
      }),
    ]);
    const results = await archive.search("Will the senate pass the budget vote?", {
      cutoff: null,
      limit: 10,
    });
    expect(urls(results)).toEqual([
      "https://news.example/title",
      "https://news.example/text-only",
      "https://news.example/one-word",
    ]);
  });

  it("matches other forms of a word (stemming)", async () => {
    await store.insertMany([
      article({
        url: "https://news.example/elections",
        title: "Elections postponed",
        text: "The elections were postponed.",
      }),
    ]);
    const results = await archive.search("election", { cutoff: null, limit: 5 });
    expect(urls(results)).toEqual(["https://news.example/elections"]);
  });

  it("returns dates, title, source, the summary as snippet, and the text", async () => {
    await store.insertMany([
      article({
        url: "https://news.example/full",
        title: "Central bank holds rates",
        source: "Example Times",
        summary: "The central bank kept its main rate unchanged.",
        text: "In a widely expected decision the central bank held rates steady.",
        publishedAt: MARCH_1,
        firstSeenAt: MARCH_1 + 3_600_000,
      }),
    ]);
    const [result] = await archive.search("central bank rates", { cutoff: null, limit: 5 });
    expect(result).toEqual({
      url: "https://news.example/full",
      title: "Central bank holds rates",
      publishedAt: new Date(MARCH_1),
      firstSeenAt: new Date(MARCH_1 + 3_600_000),
      snippet: "The central bank kept its main rate unchanged.",
      text: "In a widely expected decision the central bank held rates steady.",
      source: "Example Times",
      trust: "untrusted",
    });
  });

  it("trusts the text of feed items alone", async () => {
    await store.insertMany([
      article({ url: "https://news.example/fed", title: "Harbour dredging plan", origin: "feed" }),
      article({ url: "https://news.example/filed", title: "Harbour dredging plan" }),
    ]);
    const found = await archive.search("harbour dredging", { cutoff: CUTOFF, limit: 5 });
    const trust = Object.fromEntries(found.map((result) => [result.url, result.trust]));
    expect(trust).toEqual({
      "https://news.example/fed": "trusted",
      "https://news.example/filed": "untrusted",
    });
  });

  it("takes the snippet around the first match when there is no summary, and bounds the text", async () => {
    const filler = "Lorem ipsum dolor sit amet consectetur. ".repeat(1_000);
    await store.insertMany([
      article({
        url: "https://news.example/long",
        title: "Long read",
        text: `${filler}The volcano erupted at dawn, covering the valley in ash. ${filler}`,
      }),
    ]);
    const [result] = await archive.search("volcano eruption", { cutoff: null, limit: 1 });
    expect(result?.snippet).toContain("The volcano erupted at dawn");
    expect(result?.snippet?.length).toBeLessThanOrEqual(400);
    expect(result?.text?.length).toBe(ARCHIVE_TEXT_CHARACTERS);
    expect(result?.text?.startsWith("Lorem ipsum")).toBe(true);
  });

  it("honours the limit", async () => {
    await store.insertMany(
      Array.from({ length: 8 }, (_, index) =>
        article({ url: `https://news.example/drought-${index}`, title: `Drought report ${index}` }),
      ),
    );
    expect(await archive.search("drought", { cutoff: null, limit: 3 })).toHaveLength(3);
    expect(await archive.search("drought", { cutoff: null, limit: 0 })).toEqual([]);
  });

  it("leaves out words most of a large archive holds, unless nothing else is left", async () => {
    await store.insertMany(
      Array.from({ length: 5_000 }, (_, index) =>
        article({
          url: `https://news.example/markets/${index}`,
          title: `Market wrap ${index}`,
          text: "Shares moved in quiet market trading.",
        }),
      ),
    );
    await store.insertMany([
      article({ url: "https://news.example/copper", title: "Copper shortage deepens" }),
      article({ url: "https://news.example/copper-mine", title: "New copper mine opens" }),
    ]);
    const copper = await archive.search("copper market", { cutoff: null, limit: 10 });
    expect(urls(copper).sort()).toEqual([
      "https://news.example/copper",
      "https://news.example/copper-mine",
    ]);
    expect(await archive.search("market", { cutoff: null, limit: 3 })).toHaveLength(3);
    expect(await archive.search("market xylophone", { cutoff: null, limit: 3 })).toHaveLength(3);
  });

  describe("with a cutoff", () => {
    const cutoffMs = CUTOFF.getTime();

    beforeEach(async () => {
      await store.insertMany([
        article({
          url: "https://news.example/before",
          title: "Tariff talks begin",
          publishedAt: cutoffMs - 5 * DAY,
          firstSeenAt: cutoffMs - 5 * DAY,
        }),
        article({
          url: "https://news.example/at-cutoff",
          title: "Tariff talks continue",
          publishedAt: cutoffMs,
          firstSeenAt: cutoffMs,
        }),
        article({
          url: "https://news.example/published-after",
          title: "Tariff talks collapse",
          publishedAt: cutoffMs + 1,
          firstSeenAt: cutoffMs - DAY,
        }),
        article({
          url: "https://news.example/seen-after",
          title: "Tariff talks end in a deal",
          publishedAt: cutoffMs - 2 * DAY,
          firstSeenAt: cutoffMs + 1,
        }),
      ]);
    });

    it("excludes articles published after it, or first seen after it", async () => {
      const results = await archive.search("tariff talks", { cutoff: CUTOFF, limit: 10 });
      expect(urls(results).sort()).toEqual([
        "https://news.example/at-cutoff",
        "https://news.example/before",
      ]);
    });

    it("excludes them even when they are all that matches", async () => {
      expect(await archive.search("collapse", { cutoff: CUTOFF, limit: 10 })).toEqual([]);
      expect(await archive.search("deal", { cutoff: CUTOFF, limit: 10 })).toEqual([]);
      expect(urls(await archive.search("deal", { cutoff: null, limit: 10 }))).toEqual([
        "https://news.example/seen-after",
      ]);
    });

    it("fills the limit with eligible articles rather than dropping ineligible top hits", async () => {
      const results = await archive.search("tariff talks collapse deal", {
        cutoff: CUTOFF,
        limit: 2,
      });
      expect(urls(results).sort()).toEqual([
        "https://news.example/at-cutoff",
        "https://news.example/before",
      ]);
    });

    it("refuses an invalid cutoff", async () => {
      await expect(
        archive.search("tariff", { cutoff: new Date(Number.NaN), limit: 5 }),
      ).rejects.toBeInstanceOf(ResearchSourceError);
    });
  });

  describe("hostile queries", () => {
    beforeEach(async () => {
      await store.insertMany([
        article({
          url: "https://news.example/quake",
          title: "Earthquake shakes the coast",
          text: "An earthquake of magnitude 6.1 struck near the coast; no tsunami warning.",
        }),
      ]);
    });

    const hostile = [
      '"',
      '"earthquake',
      "earthquake\"'",
      "earthquake OR",
      "AND OR NOT",
      "NOT earthquake",
      "earthquake NEAR(coast, 2)",
      "NEAR(",
      "earthquake*",
      "*",
      "-earthquake",
      "title:earthquake",
      "text : earthquake",
      "(earthquake",
      "earthquake)) OR ((",
      "{title text}: earthquake",
      "^earthquake",
      "earthquake & coast | !tsunami <-> x:*",
      "earthquake:* & !",
      "'earthquake' '' ''''",
      "\\ \\\\ % _ ; -- drop table news_articles;",
      "🌋🌊 earthquake 🤯",
      "👨‍👩‍👧‍👦",
      "Séisme près de la côte",
      "地震 海岸",
      "\u0000earthquake\u0000",
      "\u202eearthquake",
      "",
      "   ",
      "the of and",
    ];

    it.each(hostile)("treats %j as plain words", async (query) => {
      const results = await archive.search(query, { cutoff: CUTOFF, limit: 5 });
      expect(Array.isArray(results)).toBe(true);
      if (/earthquake/i.test(query)) {
        expect(urls(results)).toEqual(["https://news.example/quake"]);
      }
    });

    it("answers a 10 kB query", async () => {
      const query = `${'earthquake "OR" NEAR( -coast *:^ '.repeat(300)}🌋`.slice(0, 10_240);
      const results = await archive.search(query, { cutoff: null, limit: 5 });
      expect(urls(results)).toEqual(["https://news.example/quake"]);
    });

    it("answers 10 kB of distinct words", async () => {
      const words = Array.from({ length: 1_500 }, (_, index) => `w${index.toString(36)}x`);
      const query = `earthquake ${words.join(" ")}`.slice(0, 10_240);
      const results = await archive.search(query, { cutoff: null, limit: 5 });
      expect(urls(results)).toEqual(["https://news.example/quake"]);
    });
  });

  it("reports a cancelled search as a source error", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      archive.search("earthquake", { cutoff: null, limit: 5, signal: controller.signal }),
    ).rejects.toBeInstanceOf(ResearchSourceError);
  });
});
