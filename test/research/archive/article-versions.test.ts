import fc from "fast-check";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ArchiveSource } from "../../../src/research/archive/archive-source.js";
import { ArchiveStore, type NewArticle } from "../../../src/research/archive/archive-store.js";
import { type ArchiveDatabase, BOTH_ARCHIVES } from "./archive-databases.js";

const PUBLISHED = Date.UTC(2026, 3, 1);
const DAY = 86_400_000;

function feedItem(
  url: string,
  firstSeenAt: number,
  text: string,
  title = "Harbour vote",
): NewArticle {
  return {
    url,
    title,
    source: "Harbour Gazette",
    summary: null,
    text,
    publishedAt: PUBLISHED,
    firstSeenAt,
    origin: "feed",
  };
}

interface VersionRow {
  version: number;
  title: string;
  text: string;
  first_seen_at: number;
  superseded_at: number | null;
}

describe.each(BOTH_ARCHIVES)("edited feed items on $name", (kind) => {
  let database: ArchiveDatabase;
  let store: ArchiveStore;
  let archive: ArchiveSource;

  beforeAll(async () => {
    database = await kind.create();
    store = new ArchiveStore(database.handle.db, { now: () => Date.UTC(2026, 6, 1) });
    archive = new ArchiveSource(database.handle.db);
  });

  afterAll(async () => {
    await database.dispose();
  });

  const versions = async (url: string): Promise<VersionRow[]> =>
    (
      await sql<VersionRow>`
        select version, title, text, first_seen_at, superseded_at from news_articles
        where url = ${url} order by version`.execute(database.handle.kysely)
    ).rows.map((row) => ({
      version: Number(row.version),
      title: row.title,
      text: row.text,
      first_seen_at: Number(row.first_seen_at),
      superseded_at: row.superseded_at === null ? null : Number(row.superseded_at),
    }));

  const shownAt = async (words: string, cutoff: number | null, url: string) =>
    (
      await archive.search(words, {
        cutoff: cutoff === null ? null : new Date(cutoff),
        limit: 50,
      })
    ).filter((result) => result.url === url);

  it("stores an edit as a new version and keeps the earlier one as it was", async () => {
    const url = "https://gazette.example/vote";
    const t1 = PUBLISHED + DAY;
    const t2 = t1 + 5 * DAY;
    await store.insertMany([feedItem(url, t1, "The harbour vote is scheduled.")]);
    expect(
      await store.insertMany([
        feedItem(url, t2, "The harbour vote passed.", "Harbour vote passes"),
      ]),
    ).toEqual({ inserted: 1, duplicates: 0 });
    // Seen again unchanged: nothing new.
    expect(
      await store.insertMany([
        feedItem(url, t2 + DAY, "The harbour vote passed.", "Harbour vote passes"),
      ]),
    ).toEqual({ inserted: 0, duplicates: 1 });
    expect(await versions(url)).toEqual([
      {
        version: 1,
        title: "Harbour vote",
        text: "The harbour vote is scheduled.",
        first_seen_at: t1,
        superseded_at: t2,
      },
      {
        version: 2,
        title: "Harbour vote passes",
        text: "The harbour vote passed.",
        first_seen_at: t2,
        superseded_at: null,
      },
    ]);

    expect(await shownAt("harbour", t1 - 1, url)).toEqual([]);
    const before = await shownAt("harbour", t2 - 1, url);
    expect(
      before.map((result) => [result.title, result.text, result.firstSeenAt?.getTime()]),
    ).toEqual([["Harbour vote", "The harbour vote is scheduled.", t1]]);
    // A word only the edit holds is not found before the edit was seen.
    expect(await shownAt("passed", t2 - 1, url)).toEqual([]);
    for (const cutoff of [t2, t2 + 30 * DAY, null]) {
      const after = await shownAt("harbour", cutoff, url);
      expect(after.map((result) => [result.title, result.text])).toEqual([
        ["Harbour vote passes", "The harbour vote passed."],
      ]);
      // A word only the earlier version holds no longer finds it.
      expect(await shownAt("scheduled", cutoff, url)).toEqual([]);
    }
  });

  it("leaves an archived url as it was when an import brings other text", async () => {
    const url = "https://gazette.example/imported";
    await store.insertMany([feedItem(url, PUBLISHED + DAY, "The harbour reopened.")]);
    expect(
      await store.insertMany([
        { ...feedItem(url, PUBLISHED + 2 * DAY, "The harbour closed again."), origin: "import" },
      ]),
    ).toEqual({ inserted: 0, duplicates: 1 });
    expect((await versions(url)).map((row) => row.text)).toEqual(["The harbour reopened."]);
  });

  it("shows, under any cutoff, the latest version first seen at or before it", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 20 * DAY }), { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 0, max: 120 * DAY }),
        async (gaps, cutoffOffset) => {
          run += 1;
          const url = `https://gazette.example/property/${run}`;
          let seenAt = PUBLISHED;
          const history: { seenAt: number; text: string }[] = [];
          for (const [index, gap] of gaps.entries()) {
            seenAt += gap;
            const text = `Harbour report, edition ${index + 1}.`;
            history.push({ seenAt, text });
            await store.insertMany([feedItem(url, seenAt, text)]);
          }
          const cutoff = PUBLISHED + cutoffOffset;
          const expected = history.filter((version) => version.seenAt <= cutoff).at(-1);
          const shown = await shownAt("harbour report", cutoff, url);
          expect(shown.map((result) => result.text)).toEqual(expected ? [expected.text] : []);
          expect((await versions(url)).map((row) => row.first_seen_at)).toEqual(
            history.map((version) => version.seenAt),
          );
        },
      ),
      { numRuns: 25 },
    );
  });
});
