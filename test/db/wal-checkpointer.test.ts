import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import SqliteDatabase from "better-sqlite3";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { ConnectionTurns } from "../../src/db/connection-turns.js";
import { startWalCheckpointer } from "../../src/db/wal-checkpointer.js";
import type { Services } from "../../src/services.js";
import { until } from "../support/polling.js";
import { openServices, sqliteUrl } from "../support/services.js";
import { TempDirs } from "../support/temp-dir.js";

const temp = new TempDirs();
let services: Services | undefined;

afterEach(async () => {
  await services?.close();
  services = undefined;
  temp.removeAll();
});

async function openSqlite(): Promise<{ services: Services; file: string }> {
  const dataDir = temp.make("sibyl-wal-");
  services = await openServices(sqliteUrl(dataDir), dataDir);
  return { services, file: path.join(dataDir, "sibyl.db") };
}

describe("WAL checkpoints on SQLite", () => {
  it("happen in the background: the service's own commits never checkpoint", async () => {
    const { services, file } = await openSqlite();
    const [setting] = await services.database.db.rows<{ wal_autocheckpoint: number }>(
      sql`pragma wal_autocheckpoint`,
    );
    expect(setting?.wal_autocheckpoint).toBe(0);

    // A committed write sits in the write-ahead log until a checkpoint copies it into the file.
    const marker = `checkpoint-marker-${Date.now()}`;
    await services.organizations.create(marker);
    await until(() => readFileSync(file).includes(marker), 5_000);
  });

  it("keep the write-ahead log bounded under a stream of commits", async () => {
    const { services, file } = await openSqlite();
    const org = await services.organizations.create("wal growth");
    // 2,000 commits of ~5 pages each: ~10,000 frames if nothing were checkpointed, written in
    // bursts with pauses long enough for the checkpointer to run between them.
    for (let burst = 0; burst < 20; burst += 1) {
      for (let i = 0; i < 100; i += 1) await services.ledger.credit(org.id, 1, "adjustment");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const walPages = statSync(`${file}-wal`).size / 4096;
    expect(walPages).toBeLessThan(5000);
  });
});

describe("the write-ahead log under commits that never pause", () => {
  it("starts over once it is long, and every commit survives", async () => {
    const file = path.join(temp.make("sibyl-wal-stream-"), "stream.db");
    const sqlite = new SqliteDatabase(file);
    sqlite.pragma("journal_mode = WAL");
    sqlite.pragma("synchronous = NORMAL");
    sqlite.exec("create table rows (id integer primary key, body blob not null)");
    const insert = sqlite.prepare("insert into rows (body) values (?)");
    const turns = new ConnectionTurns();
    const restartFrames = 200;
    const checkpointer = startWalCheckpointer(sqlite, file, turns, { restartFrames });
    try {
      // A commit of a page or two every millisecond or so, like a busy service's settlements:
      // a passive checkpoint never finds a moment when every frame is copied, so without the
      // pauses the log would hold every page of every commit.
      // A count of commits, not a duration: a loaded machine commits less in a given time.
      const body = Buffer.alloc(3000, 7);
      const wanted = 6 * restartFrames;
      let commits = 0;
      let longestLogBytes = 0;
      const deadline = Date.now() + 60_000;
      while (commits < wanted && Date.now() < deadline) {
        const waiting = turns.take();
        if (waiting) await waiting;
        insert.run(body);
        turns.give();
        commits += 1;
        longestLogBytes = Math.max(longestLogBytes, statSync(`${file}-wal`).size);
        await sleep(0);
      }
      const longestLogFrames = longestLogBytes / (4096 + 24);
      expect(commits).toBe(wanted);
      expect(longestLogFrames).toBeLessThan(5 * restartFrames);
      const count = sqlite.prepare("select count(*) from rows").pluck().get();
      expect(count).toBe(commits);
    } finally {
      await checkpointer.stop();
      sqlite.close();
    }
  });
});
