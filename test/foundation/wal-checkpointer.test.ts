import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import type { Services } from "../../src/services.js";
import { until } from "../support/polling.js";
import { openServices, sqliteUrl } from "./support/services.js";
import { TempDirs } from "./support/temp-dir.js";

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
