import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ArchiveSource } from "../../../src/research/archive/archive-source.js";
import { ArchiveStore } from "../../../src/research/archive/archive-store.js";
import { MAX_FEED_BYTES } from "../../../src/research/feeds/feed-fetch.js";
import {
  type FeedLog,
  FeedWatcher,
  type WatchedFeed,
} from "../../../src/research/feeds/feed-watcher.js";
import { ManualClock } from "../../support/manual-clock.js";
import { type ArchiveDatabase, sqliteArchive } from "../archive/archive-databases.js";
import { FeedServer } from "./feed-server.js";

interface RssItem {
  title: string;
  link?: string;
  description?: string;
  content?: string;
  pubDate?: string;
}

function rss(items: RssItem[], channelTitle = "Harbour Gazette"): string {
  const entries = items.map(
    (item) => `
    <item>
      <title>${item.title}</title>
      ${item.link ? `<link>${item.link}</link>` : ""}
      ${item.description ? `<description><![CDATA[${item.description}]]></description>` : ""}
      ${item.content ? `<content:encoded><![CDATA[${item.content}]]></content:encoded>` : ""}
      ${item.pubDate ? `<pubDate>${item.pubDate}</pubDate>` : ""}
    </item>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/">
  <channel>
    <title>${channelTitle}</title>
    <link>https://harbour.example/</link>
    <description>Port news</description>
    ${entries.join("")}
  </channel>
</rss>`;
}

const ATOM = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title>Valley Observer</title>
  <id>urn:valley</id>
  <updated>2024-03-06T10:00:00Z</updated>
  <entry>
    <title type="html">Dam inspection &amp;amp; repairs</title>
    <link rel="self" href="https://valley.example/api/entries/1"/>
    <link rel="alternate" href="/stories/dam-inspection"/>
    <id>urn:valley:1</id>
    <published>2024-03-05T09:30:00Z</published>
    <updated>2024-03-06T10:00:00Z</updated>
    <summary>Engineers inspected the dam.</summary>
    <content type="html">&lt;p&gt;Engineers inspected the &lt;b&gt;dam&lt;/b&gt; on Tuesday.&lt;/p&gt;</content>
  </entry>
  <entry>
    <title>Flood defences upgraded</title>
    <link href="https://valley.example/stories/flood-defences"/>
    <id>urn:valley:2</id>
    <updated>2024-03-04T08:00:00Z</updated>
    <summary>New barriers along the river.</summary>
  </entry>
</feed>`;

const RDF = `<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"
  xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel rdf:about="https://hill.example/">
    <title>Hill Herald</title>
    <link>https://hill.example/</link>
    <description>Hill news</description>
  </channel>
  <item rdf:about="https://hill.example/landslide">
    <title>Landslide closes road</title>
    <link>https://hill.example/landslide</link>
    <description>The mountain road is closed.</description>
    <dc:date>2024-03-02T07:00:00Z</dc:date>
  </item>
</rdf:RDF>`;

interface StoredArticle {
  url: string;
  title: string;
  source: string | null;
  summary: string | null;
  text: string;
  published_at: number;
  first_seen_at: number;
}

class RecordingLog implements FeedLog {
  readonly warnings: { details: object; message: string }[] = [];
  warn(details: object, message: string): void {
    this.warnings.push({ details, message });
  }
}

describe("feed watcher", () => {
  let database: ArchiveDatabase;
  let server: FeedServer;
  let clock: ManualClock;
  let log: RecordingLog;
  const watchers: FeedWatcher[] = [];

  beforeEach(async () => {
    database = await sqliteArchive.create();
    server = new FeedServer();
    await server.start();
    clock = new ManualClock(Date.UTC(2024, 2, 10, 12));
    log = new RecordingLog();
  });

  afterEach(async () => {
    for (const watcher of watchers.splice(0)) await watcher.stop();
    await server.stop();
    await database.dispose();
  });

  function watch(paths: string[], options: { everyMs?: number; timeoutMs?: number } = {}) {
    const feeds: WatchedFeed[] = paths.map((path) => ({
      url: server.url(path),
      everyMs: options.everyMs ?? 60_000,
    }));
    const watcher = new FeedWatcher({
      feeds,
      store: new ArchiveStore(database.handle.db, clock),
      clock,
      log,
      ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    });
    watchers.push(watcher);
    return watcher;
  }

  async function stored(): Promise<StoredArticle[]> {
    const rows = await sql<StoredArticle>`
      select url, title, source, summary, text, published_at, first_seen_at
      from news_articles order by url, version`.execute(database.handle.kysely);
    return rows.rows.map((row) => ({
      ...row,
      published_at: Number(row.published_at),
      first_seen_at: Number(row.first_seen_at),
    }));
  }

  it("stores an RSS feed's items, first seen at the poll, dated by the item or the poll", async () => {
    server.routes.set("/rss", {
      body: rss([
        {
          title: "Port strike ends &amp; ships sail",
          link: "https://harbour.example/strike-ends",
          description: "<p>Dock workers <b>returned</b>.</p>",
          content:
            "<p>Dock workers returned on Monday.</p><p>Ships left at dawn &mdash; finally.</p>",
          pubDate: "Sat, 09 Mar 2024 18:00:00 GMT",
        },
        {
          title: "Crane delivery delayed",
          link: "https://harbour.example/crane",
          description: "The new crane is late.",
        },
        { title: "An item without a link", description: "Nowhere to go." },
      ]),
    });
    const watcher = watch(["/rss"]);
    expect(await watcher.pollAll()).toEqual([
      { url: server.url("/rss"), status: "stored", inserted: 2 },
    ]);
    const now = clock.now();
    expect(await stored()).toEqual([
      {
        url: "https://harbour.example/crane",
        title: "Crane delivery delayed",
        source: "Harbour Gazette",
        summary: null,
        text: "The new crane is late.",
        published_at: now,
        first_seen_at: now,
      },
      {
        url: "https://harbour.example/strike-ends",
        title: "Port strike ends & ships sail",
        source: "Harbour Gazette",
        summary: "Dock workers returned.",
        text: "Dock workers returned on Monday.\nShips left at dawn — finally.",
        published_at: Date.UTC(2024, 2, 9, 18),
        first_seen_at: now,
      },
    ]);
    const found = await new ArchiveSource(database.handle.db).search("port strike", {
      cutoff: new Date(now),
      limit: 5,
    });
    expect(found.map((r) => r.url)).toEqual(["https://harbour.example/strike-ends"]);
    // Text the watcher stored as it first saw it is the one text research trusts.
    expect(found.map((r) => r.trust)).toEqual(["trusted"]);
    expect(log.warnings).toEqual([]);
  });

  it("gives an item added between polls the second poll's time, and keeps the first item's", async () => {
    const first = {
      title: "Harbour dredging starts",
      link: "https://harbour.example/dredging",
      pubDate: "Sun, 10 Mar 2024 06:00:00 GMT",
    };
    server.routes.set("/rss", { body: rss([first]) });
    const watcher = watch(["/rss"]);
    await watcher.pollAll();
    const firstPoll = clock.now();

    clock.advanceSeconds(15 * 60);
    server.routes.set("/rss", {
      body: rss([
        {
          title: "Dredging finds shipwreck",
          link: "https://harbour.example/shipwreck",
          pubDate: "Sun, 10 Mar 2024 06:30:00 GMT",
        },
        first,
      ]),
    });
    expect(await watcher.pollAll()).toEqual([
      { url: server.url("/rss"), status: "stored", inserted: 1 },
    ]);
    const byUrl = Object.fromEntries((await stored()).map((row) => [row.url, row]));
    expect(byUrl["https://harbour.example/dredging"]?.first_seen_at).toBe(firstPoll);
    expect(byUrl["https://harbour.example/shipwreck"]?.first_seen_at).toBe(clock.now());
    expect(byUrl["https://harbour.example/shipwreck"]?.published_at).toBe(
      Date.UTC(2024, 2, 10, 6, 30),
    );

    // As of the first poll, the shipwreck was not yet knowable, though dated before it.
    const asOfFirstPoll = await new ArchiveSource(database.handle.db).search("dredging", {
      cutoff: new Date(firstPoll),
      limit: 5,
    });
    expect(asOfFirstPoll.map((r) => r.url)).toEqual(["https://harbour.example/dredging"]);
  });

  it("stores an edited item as a new version first seen at the poll that saw the edit", async () => {
    const item = {
      title: "Harbour vote set for June 3",
      link: "https://harbour.example/vote",
      description: "The council will vote on June 3.",
      pubDate: "Sun, 10 Mar 2024 06:00:00 GMT",
    };
    server.routes.set("/rss", { body: rss([item]) });
    const watcher = watch(["/rss"]);
    await watcher.pollAll();
    const firstPoll = clock.now();

    clock.advanceSeconds(60 * 60);
    server.routes.set("/rss", {
      body: rss([{ ...item, title: "Harbour vote passes", description: "The council voted yes." }]),
    });
    expect(await watcher.pollAll()).toEqual([
      { url: server.url("/rss"), status: "stored", inserted: 1 },
    ]);
    const editPoll = clock.now();
    clock.advanceSeconds(60 * 60);
    expect(await watcher.pollAll()).toEqual([
      { url: server.url("/rss"), status: "stored", inserted: 0 },
    ]);
    expect((await stored()).map((row) => [row.title, row.first_seen_at])).toEqual([
      ["Harbour vote set for June 3", firstPoll],
      ["Harbour vote passes", editPoll],
    ]);

    const archive = new ArchiveSource(database.handle.db);
    const asOf = async (cutoff: number) =>
      (await archive.search("harbour vote", { cutoff: new Date(cutoff), limit: 5 })).map(
        (r) => r.title,
      );
    expect(await asOf(editPoll - 1)).toEqual(["Harbour vote set for June 3"]);
    expect(await asOf(editPoll)).toEqual(["Harbour vote passes"]);
  });

  it("reads Atom (alternate link, relative links, published before updated) and RDF", async () => {
    server.routes.set("/atom", { contentType: "application/atom+xml", body: ATOM });
    server.routes.set("/rdf", { contentType: "application/rdf+xml", body: RDF });
    const watcher = watch(["/atom", "/rdf"]);
    expect((await watcher.pollAll()).map((outcome) => outcome.inserted)).toEqual([2, 1]);
    const rows = await stored();
    expect(rows.map((row) => [row.url, row.title, row.source, row.published_at])).toEqual([
      [
        server.url("/stories/dam-inspection"),
        "Dam inspection & repairs",
        "Valley Observer",
        Date.UTC(2024, 2, 5, 9, 30),
      ],
      [
        "https://hill.example/landslide",
        "Landslide closes road",
        "Hill Herald",
        Date.UTC(2024, 2, 2, 7),
      ],
      [
        "https://valley.example/stories/flood-defences",
        "Flood defences upgraded",
        "Valley Observer",
        Date.UTC(2024, 2, 4, 8),
      ],
    ]);
    const dam = rows.find((row) => row.url.endsWith("/stories/dam-inspection"));
    expect(dam).toMatchObject({
      summary: "Engineers inspected the dam.",
      text: "Engineers inspected the dam on Tuesday.",
    });
  });

  it("asks again with ETag or Last-Modified and stores nothing on a 304", async () => {
    const body = rss([{ title: "Tide tables", link: "https://harbour.example/tides" }]);
    server.routes.set("/etag", { body, headers: { ETag: '"v1"' } });
    server.routes.set("/modified", {
      body,
      headers: { "Last-Modified": "Sat, 09 Mar 2024 00:00:00 GMT" },
    });
    const watcher = watch(["/etag", "/modified"]);
    expect((await watcher.pollAll()).map((outcome) => outcome.status)).toEqual([
      "stored",
      "stored",
    ]);
    expect((await watcher.pollAll()).map((outcome) => outcome.status)).toEqual([
      "not-modified",
      "not-modified",
    ]);
    const [firstEtag, secondEtag] = server.requestsTo("/etag");
    expect(firstEtag?.headers["if-none-match"]).toBeUndefined();
    expect(secondEtag?.headers["if-none-match"]).toBe('"v1"');
    expect(secondEtag?.headers["user-agent"]).toMatch(/^Sibyl-FeedWatcher\//);
    expect(server.requestsTo("/modified")[1]?.headers["if-modified-since"]).toBe(
      "Sat, 09 Mar 2024 00:00:00 GMT",
    );
    expect(log.warnings).toEqual([]);
  });

  it("logs a broken feed at warn and still stores the others", async () => {
    server.routes.set("/html", {
      contentType: "text/html",
      body: "<html><body>Moved</body></html>",
    });
    server.routes.set("/truncated", { body: "<rss><channel><item><title>Half" });
    server.routes.set("/error", { status: 503, body: "busy" });
    server.routes.set("/huge", { body: Buffer.alloc(MAX_FEED_BYTES + 1, 0x20) });
    server.routes.set("/slow", { delayMs: 2_000, body: rss([]) });
    server.routes.set("/good", {
      body: rss([{ title: "Ferry timetable changes", link: "https://harbour.example/ferry" }]),
    });
    const paths = ["/html", "/truncated", "/error", "/huge", "/slow", "/good"];
    const watcher = watch(paths, { timeoutMs: 500 });
    const outcomes = await watcher.pollAll();
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      "failed",
      "failed",
      "failed",
      "failed",
      "failed",
      "stored",
    ]);
    expect((await stored()).map((row) => row.url)).toEqual(["https://harbour.example/ferry"]);
    expect(log.warnings.map((warning) => warning.message)).toEqual(
      Array(5).fill("news feed poll failed"),
    );
    const reasons = log.warnings.map(
      (warning) => (warning.details as { feed: string; err: { message: string } }).err.message,
    );
    expect(reasons[2]).toBe("HTTP 503");
    expect(reasons[3]).toMatch(/larger than/);
    expect(reasons[4]).toMatch(/within 500 ms/);
    expect(log.warnings.map((warning) => (warning.details as { feed: string }).feed)).toEqual(
      paths.slice(0, 5).map((path) => server.url(path)),
    );
  });

  it("follows redirects and decodes a feed's declared charset", async () => {
    server.routes.set("/old", { status: 301, headers: { Location: "/latin1" }, body: "" });
    const latin1 = `<?xml version="1.0" encoding="ISO-8859-1"?>
<rss version="2.0"><channel><title>Caf\u00e9 Post</title><link>https://cafe.example/</link>
<description>x</description><item><title>Cr\u00e8me br\u00fbl\u00e9e prices rise</title>
<link>https://cafe.example/creme</link></item></channel></rss>`;
    server.routes.set("/latin1", {
      contentType: "application/rss+xml",
      body: Buffer.from(latin1, "latin1"),
    });
    const watcher = watch(["/old"]);
    expect((await watcher.pollAll())[0]?.status).toBe("stored");
    expect((await stored()).map((row) => [row.title, row.source])).toEqual([
      ["Crème brûlée prices rise", "Café Post"],
    ]);
  });

  it("polls on schedule without overlapping polls of a feed, and stops", async () => {
    let served = 0;
    server.routes.set("/slow", () => {
      served += 1;
      return {
        delayMs: 50,
        body: rss([{ title: `Bulletin ${served}`, link: `https://harbour.example/b/${served}` }]),
      };
    });
    const watcher = watch(["/slow"], { everyMs: 1 });
    watcher.start();
    while (server.requestsTo("/slow").length < 4) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // A manual poll while one is under way joins it instead of starting another.
    await Promise.all([watcher.pollAll(), watcher.pollAll()]);
    await watcher.stop();
    const requestsAtStop = server.requestsTo("/slow").length;
    expect(server.maxConcurrent.get("/slow")).toBe(1);
    expect((await stored()).length).toBeGreaterThanOrEqual(4);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.requestsTo("/slow")).toHaveLength(requestsAtStop);
  });
});
