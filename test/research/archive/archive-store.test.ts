import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ArchiveSource } from "../../../src/research/archive/archive-source.js";
import { ArchiveStore, type NewArticle } from "../../../src/research/archive/archive-store.js";
import { type ArchiveDatabase, BOTH_ARCHIVES } from "./archive-databases.js";

const FIRST_SEEN = Date.UTC(2024, 0, 10);
const LATER = Date.UTC(2024, 5, 1);

function article(url: string, firstSeenAt: number, title = "Port strike ends"): NewArticle {
  return {
    url,
    title,
    source: "Harbour Gazette",
    summary: null,
    text: "Dock workers returned after a week-long strike.",
    publishedAt: Date.UTC(2024, 0, 9),
    firstSeenAt,
    origin: "import",
  };
}

describe.each(BOTH_ARCHIVES)("archive store on $name", (kind) => {
  let database: ArchiveDatabase;
  let now = Date.UTC(2025, 0, 1);
  let store: ArchiveStore;

  beforeEach(async () => {
    database = await kind.create();
    store = new ArchiveStore(database.handle.db, { now: () => now });
  });

  afterEach(async () => {
    await database.dispose();
  });

  const rows = async () =>
    (
      await sql<{ url: string; title: string; first_seen_at: number; added_at: number }>`
        select url, title, first_seen_at, added_at from news_articles order by url`.execute(
        database.handle.kysely,
      )
    ).rows.map((row) => ({
      ...row,
      first_seen_at: Number(row.first_seen_at),
      added_at: Number(row.added_at),
    }));

  it("inserts articles and records when they were added", async () => {
    expect(
      await store.insertMany([
        article("https://a.example/1", FIRST_SEEN),
        article("https://a.example/2", FIRST_SEEN),
      ]),
    ).toEqual({ inserted: 2, duplicates: 0 });
    expect(await rows()).toEqual([
      {
        url: "https://a.example/1",
        title: "Port strike ends",
        first_seen_at: FIRST_SEEN,
        added_at: now,
      },
      {
        url: "https://a.example/2",
        title: "Port strike ends",
        first_seen_at: FIRST_SEEN,
        added_at: now,
      },
    ]);
  });

  it("keeps the first copy of a url, with its first_seen_at, and counts the rest as duplicates", async () => {
    await store.insertMany([article("https://a.example/1", FIRST_SEEN)]);
    const firstAddedAt = now;
    now += 60_000;
    expect(
      await store.insertMany([
        article("https://a.example/1", LATER, "Port strike ends (updated)"),
        article("https://a.example/2", LATER),
        article("https://a.example/2", LATER + 1, "A second copy in the same batch"),
      ]),
    ).toEqual({ inserted: 1, duplicates: 2 });
    expect(await rows()).toEqual([
      {
        url: "https://a.example/1",
        title: "Port strike ends",
        first_seen_at: FIRST_SEEN,
        added_at: firstAddedAt,
      },
      {
        url: "https://a.example/2",
        title: "Port strike ends",
        first_seen_at: LATER,
        added_at: now,
      },
    ]);
  });

  it("keeps the search index in step: a duplicate's words are not indexed", async () => {
    await store.insertMany([article("https://a.example/1", FIRST_SEEN)]);
    await store.insertMany([article("https://a.example/1", LATER, "Volcano erupts")]);
    const archive = new ArchiveSource(database.handle.db);
    expect(await archive.search("volcano", { cutoff: null, limit: 5 })).toEqual([]);
    expect(
      (await archive.search("port strike", { cutoff: null, limit: 5 })).map((r) => r.url),
    ).toEqual(["https://a.example/1"]);
  });

  it("inserts large batches across several statements in one transaction", async () => {
    const many = Array.from({ length: 750 }, (_, index) =>
      article(`https://a.example/${index}`, FIRST_SEEN),
    );
    expect(await store.insertMany(many)).toEqual({ inserted: 750, duplicates: 0 });
    expect(await store.insertMany(many)).toEqual({ inserted: 0, duplicates: 750 });
    expect(await store.insertMany([])).toEqual({ inserted: 0, duplicates: 0 });
  });

  it("stores text with NUL characters (dropped) on both databases", async () => {
    await store.insertMany([
      {
        ...article("https://a.example/nul", FIRST_SEEN, "Nul\u0000 title"),
        text: "a\u0000b",
        summary: "\u0000",
      },
    ]);
    expect((await rows())[0]?.title).toBe("Nul title");
  });

  it("rolls back the whole batch when one row cannot be stored", async () => {
    const batch = Array.from({ length: 150 }, (_, index) =>
      article(`https://a.example/${index}`, FIRST_SEEN),
    );
    // Past the first statement's rows, so that statement has already run when this one fails.
    Object.assign(batch[120] as NewArticle, { publishedAt: null });
    await expect(store.insertMany(batch)).rejects.toThrow();
    expect(await rows()).toEqual([]);
  });
});
