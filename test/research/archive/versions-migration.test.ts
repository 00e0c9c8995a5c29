import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Kysely, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { connectDatabase, type DatabaseHandle } from "../../../src/db/connect.js";
import { newsArchive } from "../../../src/db/migrations/0005_news_archive.js";
import { newsOrigin } from "../../../src/db/migrations/0013_news_origin.js";
import { newsVersions } from "../../../src/db/migrations/0015_news_versions.js";
import { ArchiveSource } from "../../../src/research/archive/archive-source.js";
import { ArchiveStore } from "../../../src/research/archive/archive-store.js";
import { createTestDatabase } from "../../support/postgres.js";

const SEEN = Date.UTC(2026, 3, 2);

/** An archive as it stood before versions, holding one article, then upgraded. */
async function upgradedArchive(handle: DatabaseHandle): Promise<void> {
  const dialect = handle.db.dialect;
  const db = handle.kysely as unknown as Kysely<unknown>;
  await newsArchive(dialect).up(db);
  await newsOrigin().up(db);
  await sql`insert into news_articles
      (url, title, source, summary, text, published_at, first_seen_at, added_at, origin)
    values ('https://gazette.example/old', 'Harbour vote', null, null,
      'The harbour vote is scheduled.', ${SEEN}, ${SEEN}, ${SEEN}, 'feed')`.execute(db);
  await newsVersions(dialect).up(db);
}

async function assertUpgraded(handle: DatabaseHandle): Promise<void> {
  const archive = new ArchiveSource(handle.db);
  const search = (words: string, cutoff: number) =>
    archive.search(words, { cutoff: new Date(cutoff), limit: 5 });
  expect((await search("harbour", SEEN)).map((r) => r.text)).toEqual([
    "The harbour vote is scheduled.",
  ]);
  const store = new ArchiveStore(handle.db, { now: () => SEEN + 10 });
  await store.insertMany([
    {
      url: "https://gazette.example/old",
      title: "Harbour vote",
      source: null,
      summary: null,
      text: "The harbour vote passed.",
      publishedAt: SEEN,
      firstSeenAt: SEEN + 10,
      origin: "feed",
    },
  ]);
  expect((await search("harbour", SEEN + 9)).map((r) => r.text)).toEqual([
    "The harbour vote is scheduled.",
  ]);
  expect((await search("harbour", SEEN + 10)).map((r) => r.text)).toEqual([
    "The harbour vote passed.",
  ]);
  expect(await search("scheduled", SEEN + 10)).toEqual([]);
}

describe("the upgrade to versioned articles", () => {
  it("keeps SQLite's rows and their search index, and lets a url take a second version", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "sibyl-versions-"));
    const handle = connectDatabase(`sqlite:${path.join(dir, "sibyl.db")}`);
    try {
      await upgradedArchive(handle);
      await assertUpgraded(handle);
    } finally {
      await handle.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("keeps PostgreSQL's rows and lets a url take a second version", async () => {
    const database = await createTestDatabase({ empty: true });
    const handle = connectDatabase(database.url);
    try {
      await upgradedArchive(handle);
      await assertUpgraded(handle);
    } finally {
      await handle.close();
      await database.drop();
    }
  });
});
