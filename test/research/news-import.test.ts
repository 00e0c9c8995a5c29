import { writeFileSync } from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectDatabase, type DatabaseHandle } from "../../src/db/connect.js";
import { ArchiveSource } from "../../src/research/archive/archive-source.js";
import { runInProcess } from "../support/cli-in-process.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { TempDirs } from "../support/temp-dir.js";

interface Target {
  name: string;
  /** Environment for the CLI, and the database url it will use. */
  prepare(dir: string): Promise<{ env: Record<string, string>; url: string }>;
}

let postgres: TestDatabase | null = null;

const TARGETS: Target[] = [
  {
    name: "sqlite",
    prepare: async (dir) => ({
      env: { SIBYL_DATA_DIR: dir },
      url: `sqlite:${path.join(dir, "sibyl.db")}`,
    }),
  },
  {
    name: "postgres",
    prepare: async (dir) => {
      postgres = await createTestDatabase();
      return { env: { SIBYL_DATA_DIR: dir, SIBYL_DATABASE_URL: postgres.url }, url: postgres.url };
    },
  },
];

const line = (fields: Record<string, unknown>) => JSON.stringify(fields);

const good = (index: number, extra: Record<string, unknown> = {}) =>
  line({
    url: `https://news.example/articles/${index}`,
    title: `Reservoir levels report ${index}`,
    published_at: "2024-03-01T08:00:00Z",
    text: `Reservoir levels fell for the ${index}th week running.`,
    ...extra,
  });

function summaryOf(stdout: string): Record<string, unknown> {
  const lines = stdout.split("\n").filter((text) => text.trim() !== "");
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0] as string) as Record<string, unknown>;
}

describe.each(TARGETS)("sibyl news import on $name", (target) => {
  const temp = new TempDirs();
  let dir: string;
  let env: Record<string, string>;
  let handle: DatabaseHandle;
  let archive: ArchiveSource;

  beforeAll(async () => {
    dir = temp.make("sibyl-news-import-");
    const emptyConfig = path.join(dir, "empty.yaml");
    writeFileSync(emptyConfig, "");
    const prepared = await target.prepare(dir);
    env = { ...prepared.env, SIBYL_CONFIG: emptyConfig };
    // The first import migrates; open our own connection only after that.
    const first = await sibyl([good(0)]);
    expect(summaryOf(first.stdout)).toEqual({ imported: 1, duplicates: 0, rejected: 0 });
    handle = connectDatabase(prepared.url);
    archive = new ArchiveSource(handle.db);
  });

  afterAll(async () => {
    await handle.close();
    await postgres?.drop();
    postgres = null;
    temp.removeAll();
  });

  let files = 0;
  function writeLines(lines: string[], ending = "\n"): string {
    files += 1;
    const file = path.join(dir, `articles-${files}.jsonl`);
    writeFileSync(file, lines.join(ending) + ending);
    return file;
  }

  const sibyl = (lines: string[], ending?: string, flags: string[] = []) =>
    runInProcess(["news", "import", writeLines(lines, ending), ...flags], env);
  const FROM_PUBLISHED = ["--first-seen-from-published"];

  function writeFeed(xml: string, extension: string): string {
    files += 1;
    const file = path.join(dir, `feed-${files}.${extension}`);
    writeFileSync(file, xml);
    return file;
  }

  const firstSeen = async (url: string) => {
    const rows = await sql<{ first_seen_at: number; published_at: number }>`
      select first_seen_at, published_at from news_articles where url = ${url}`.execute(
      handle.kysely,
    );
    const row = rows.rows[0];
    return row && { firstSeenAt: Number(row.first_seen_at), publishedAt: Number(row.published_at) };
  };

  it("keeps good lines and reports each bad one with its line number and reason", async () => {
    const lines = [
      good(1),
      "{not json",
      good(2, { title: "" }),
      good(3, { url: "ftp://news.example/3" }),
      good(4, { url: "/relative/4" }),
      good(5, { published_at: "yesterday" }),
      good(6, { published_at: "2024-02-30" }),
      good(7, { published_at: undefined }),
      good(8, { text: undefined }),
      "[1, 2, 3]",
      "",
      good(9, { first_seen_at: "2024-02-01T00:00:00Z" }),
      good(10, { source: 42 }),
      good(11, { published_at: 1709280000 }),
      good(12, { source: "Water Weekly", summary: "Levels fell again." }),
    ];
    const result = await sibyl(lines);
    expect(result.code).toBe(0);
    expect(summaryOf(result.stdout)).toEqual({ imported: 2, duplicates: 0, rejected: 12 });
    const reported = result.stderr
      .trim()
      .split("\n")
      .map((text) => text.replace(/^.*?\.jsonl:/, ""));
    expect(reported).toEqual([
      "2: invalid JSON",
      "3: title is missing",
      "4: url must be an absolute http(s) URL",
      "5: url must be an absolute http(s) URL",
      '6: published_at is not a valid ISO 8601 date-time: "yesterday"',
      '7: published_at is not a valid ISO 8601 date-time: "2024-02-30"',
      "8: published_at is missing",
      "9: text is missing",
      "10: not a JSON object",
      "12: first_seen_at is earlier than published_at",
      "13: source must be a string",
      "14: published_at must be an ISO 8601 date-time string",
    ]);
    const found = await archive.search("reservoir levels", { cutoff: null, limit: 50 });
    expect(found.map((r) => r.url).sort()).toEqual([
      "https://news.example/articles/0",
      "https://news.example/articles/1",
      "https://news.example/articles/12",
    ]);
    expect(found.find((r) => r.url.endsWith("/12"))).toMatchObject({
      source: "Water Weekly",
      snippet: "Levels fell again.",
    });
  });

  it("counts a line without first_seen_at as first seen at the import, or with the flag at its published date", async () => {
    const before = Date.now();
    const result = await sibyl([
      good(20, { published_at: "2024-03-10" }),
      good(21, { published_at: "2024-03-10T12:00:00+02:00", first_seen_at: "2024-03-20T00:00Z" }),
    ]);
    const after = Date.now();
    expect(summaryOf(result.stdout)).toEqual({ imported: 2, duplicates: 0, rejected: 0 });
    const imported = await firstSeen("https://news.example/articles/20");
    expect(imported?.publishedAt).toBe(Date.UTC(2024, 2, 11) - 1);
    expect(imported?.firstSeenAt).toBeGreaterThanOrEqual(before);
    expect(imported?.firstSeenAt).toBeLessThanOrEqual(after);
    expect(await firstSeen("https://news.example/articles/21")).toEqual({
      publishedAt: Date.UTC(2024, 2, 10, 10),
      firstSeenAt: Date.UTC(2024, 2, 20),
    });

    const vouched = await sibyl([good(22, { published_at: "2024-03-10" })], "\n", FROM_PUBLISHED);
    expect(summaryOf(vouched.stdout)).toEqual({ imported: 1, duplicates: 0, rejected: 0 });
    // A date alone may be any moment of that day: the article counts from its last one.
    expect(await firstSeen("https://news.example/articles/22")).toEqual({
      publishedAt: Date.UTC(2024, 2, 11) - 1,
      firstSeenAt: Date.UTC(2024, 2, 11) - 1,
    });
    const asOf = (
      await archive.search("reservoir", { cutoff: new Date("2024-03-15T00:00:00Z"), limit: 50 })
    ).map((r) => r.url);
    expect(asOf).toContain("https://news.example/articles/22");
    expect(asOf).not.toContain("https://news.example/articles/20");
    expect(asOf).not.toContain("https://news.example/articles/21");
    expect(
      (await archive.search("reservoir", { cutoff: null, limit: 50 })).map((r) => r.trust),
    ).not.toContain("trusted");
  });

  it("reads edit times: the latest of first_seen_at, updated_at and modified counts", async () => {
    const result = await sibyl(
      [
        good(50, { first_seen_at: "2024-03-02T00:00:00Z", updated_at: "2024-03-20T00:00:00Z" }),
        good(51, { modified: "2024-03-25T06:00:00Z" }),
        good(52, { updated_at: "2024-02-01T00:00:00Z" }),
        good(53, { updated_at: "last week" }),
      ],
      "\n",
      FROM_PUBLISHED,
    );
    expect(summaryOf(result.stdout)).toEqual({ imported: 3, duplicates: 0, rejected: 1 });
    expect(result.stderr).toMatch(/:4: updated_at is not a valid ISO 8601 date-time: "last week"/);
    expect((await firstSeen("https://news.example/articles/50"))?.firstSeenAt).toBe(
      Date.UTC(2024, 2, 20),
    );
    expect((await firstSeen("https://news.example/articles/51"))?.firstSeenAt).toBe(
      Date.UTC(2024, 2, 25, 6),
    );
    expect((await firstSeen("https://news.example/articles/52"))?.firstSeenAt).toBe(
      Date.UTC(2024, 2, 1, 8),
    );
  });

  it("exits 1 when nothing was imported and something was rejected", async () => {
    const result = await sibyl([good(60, { published_at: "soon" }), "{oops"]);
    expect(result.code).toBe(1);
    expect(summaryOf(result.stdout)).toEqual({ imported: 0, duplicates: 0, rejected: 2 });
    expect(result.stderr).toMatch(/:1: published_at is not a valid ISO 8601 date-time: "soon"/);
    const duplicatesOnly = await sibyl([good(0)]);
    expect(duplicatesOnly.code).toBe(0);
  });

  it("imports RSS and Atom documents, rejecting items without a readable date by their line", async () => {
    const rss = writeFeed(
      `<?xml version="1.0"?>
<rss version="2.0"><channel><title>Water Wire</title>
<item><title>Reservoir rss one</title><link>https://news.example/rss/1</link>
  <pubDate>Tue, 12 Mar 2024 08:00:00 GMT</pubDate><description>&lt;p&gt;Levels fell.&lt;/p&gt;</description></item>
<item><title>Reservoir rss two</title><link>https://news.example/rss/2</link>
  <pubDate>sometime soon</pubDate></item>
<item><title>Reservoir rss three</title><link>https://news.example/rss/3</link></item>
</channel></rss>
`,
      "xml",
    );
    const fromRss = await runInProcess(["news", "import", rss, ...FROM_PUBLISHED], env);
    expect(fromRss.code).toBe(0);
    expect(summaryOf(fromRss.stdout)).toEqual({ imported: 1, duplicates: 0, rejected: 2 });
    expect(
      fromRss.stderr
        .trim()
        .split("\n")
        .map((text) => text.replace(/^.*?\.xml:/, "")),
    ).toEqual(['5: item date is not a readable date: "sometime soon"', "7: item has no date"]);
    expect(await firstSeen("https://news.example/rss/1")).toEqual({
      publishedAt: Date.UTC(2024, 2, 12, 8),
      firstSeenAt: Date.UTC(2024, 2, 12, 8),
    });

    const atom = writeFeed(
      `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>Atom Water</title>
<entry><title>Reservoir atom one</title><link href="https://news.example/atom/1"/>
  <published>2024-03-12T08:00:00Z</published><updated>2024-03-18T00:00:00Z</updated>
  <summary>Levels fell again.</summary></entry>
</feed>
`,
      "atom",
    );
    const fromAtom = await runInProcess(["news", "import", atom], env);
    expect(summaryOf(fromAtom.stdout)).toEqual({ imported: 1, duplicates: 0, rejected: 0 });
    const row = await firstSeen("https://news.example/atom/1");
    expect(row?.publishedAt).toBe(Date.UTC(2024, 2, 12, 8));
    // Without the flag the import is when it was first seen.
    expect(row?.firstSeenAt).toBeGreaterThan(Date.UTC(2025, 0, 1));
    const found = await archive.search("reservoir atom", { cutoff: null, limit: 5 });
    expect(found[0]).toMatchObject({ source: "Atom Water", trust: "untrusted" });

    const garbage = writeFeed("<html><body>not a feed</body></html>", "xml");
    const fromGarbage = await runInProcess(["news", "import", garbage], env);
    expect(fromGarbage.code).toBe(1);
    expect(fromGarbage.stderr).toMatch(/:1: not a readable RSS, Atom or RDF feed/);
  });

  it("counts an article dated by its day alone from that day's end, or from when it was first seen", async () => {
    const result = await sibyl(
      [
        good(25, { published_at: "2024-03-12" }),
        good(26, { published_at: "2024-03-12", first_seen_at: "2024-03-12T09:30:00Z" }),
        good(27, { published_at: "2024-03-12T18:00:00Z", first_seen_at: "2024-03-12" }),
      ],
      "\n",
      FROM_PUBLISHED,
    );
    expect(summaryOf(result.stdout)).toEqual({ imported: 3, duplicates: 0, rejected: 0 });
    expect(await firstSeen("https://news.example/articles/26")).toEqual({
      publishedAt: Date.UTC(2024, 2, 12, 9, 30),
      firstSeenAt: Date.UTC(2024, 2, 12, 9, 30),
    });
    expect(await firstSeen("https://news.example/articles/27")).toEqual({
      publishedAt: Date.UTC(2024, 2, 12, 18),
      firstSeenAt: Date.UTC(2024, 2, 13) - 1,
    });
    const urlsAsOf = async (cutoff: string) =>
      (await archive.search("reservoir", { cutoff: new Date(cutoff), limit: 50 })).map(
        (found) => found.url,
      );
    const noon = await urlsAsOf("2024-03-12T12:00:00Z");
    expect(noon).not.toContain("https://news.example/articles/25");
    expect(noon).toContain("https://news.example/articles/26");
    expect(noon).not.toContain("https://news.example/articles/27");
    const nextDay = await urlsAsOf("2024-03-13T00:00:00Z");
    for (const index of [25, 26, 27])
      expect(nextDay).toContain(`https://news.example/articles/${index}`);
  });

  it("is idempotent by url: a second import keeps the first first_seen_at", async () => {
    const lines = [
      good(30, { first_seen_at: "2024-03-02T00:00:00Z" }),
      good(31),
      good(31, { title: "The same url again in one file" }),
    ];
    expect(summaryOf((await sibyl(lines)).stdout)).toEqual({
      imported: 2,
      duplicates: 1,
      rejected: 0,
    });
    const again = await sibyl([good(30, { first_seen_at: "2024-06-01T00:00:00Z" }), good(31)]);
    expect(summaryOf(again.stdout)).toEqual({ imported: 0, duplicates: 2, rejected: 0 });
    expect((await firstSeen("https://news.example/articles/30"))?.firstSeenAt).toBe(
      Date.UTC(2024, 2, 2),
    );
  });

  it("reads CRLF line endings and a byte-order mark", async () => {
    const result = await sibyl([`\uFEFF${good(40)}`, good(41)], "\r\n");
    expect(result.stderr).toBe("");
    expect(summaryOf(result.stdout)).toEqual({ imported: 2, duplicates: 0, rejected: 0 });
  });

  it("reports progress on a large file and imports all of it", async () => {
    const lines = Array.from({ length: 20_500 }, (_, index) => good(1_000 + index));
    const result = await sibyl(lines);
    expect(summaryOf(result.stdout)).toEqual({ imported: 20_500, duplicates: 0, rejected: 0 });
    const progress = result.stderr.trim().split("\n");
    expect(progress).toHaveLength(2);
    expect(progress[0]).toMatch(/: 10000 lines read, \d+ imported, 0 duplicates, 0 rejected$/);
    expect(progress[1]).toMatch(/: 20000 lines read, \d+ imported, 0 duplicates, 0 rejected$/);
    expect(await firstSeen("https://news.example/articles/21499")).toBeDefined();
  });

  it("fails clearly on a missing file and on a missing argument", async () => {
    const missing = await runInProcess(["news", "import", path.join(dir, "nope.jsonl")], env);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe("");
    expect(missing.stderr).toMatch(/cannot read .*nope\.jsonl/);

    const directory = await runInProcess(["news", "import", dir], env);
    expect(directory.code).toBe(1);
    expect(directory.stderr).toMatch(/not a file/);

    const noFile = await runInProcess(["news", "import"], env);
    expect(noFile.code).toBe(2);
    expect(noFile.stderr).toMatch(/news import needs FILE/);

    const unknown = await runInProcess(["news", "export"], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command "news export"/);
  });
});
