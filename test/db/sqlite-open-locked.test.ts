import { spawn } from "node:child_process";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { connectDatabase } from "../../src/db/connect.js";
import { TempDirs } from "../support/temp-dir.js";

const temp = new TempDirs();
afterAll(() => temp.removeAll());

/**
 * Another process writing to a file not yet in write-ahead-log mode, as a second `sibyl`
 * command does while it turns the log on for a new file: it holds the write lock for `ms`.
 * Resolves once the lock is held, with a promise of the process's exit code.
 */
function holdWriteLock(file: string, ms: number): Promise<{ exited: Promise<number | null> }> {
  const script = `
    const Database = require("better-sqlite3");
    const db = new Database(process.argv[1]);
    db.exec("create table first (id integer); begin immediate; create table second (id integer)");
    process.stdout.write("locked\\n");
    setTimeout(() => { db.exec("commit"); db.close(); }, Number(process.argv[2]));
  `;
  const child = spawn(process.execPath, ["-e", script, file, String(ms)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.stdout.once("data", () => resolve({ exited }));
  });
}

describe("opening a SQLite file while another process writes to it", () => {
  it("waits for its write lock, where SQLite itself answers 'database is locked' at once", async () => {
    const file = path.join(temp.make("sibyl-open-locked-"), "sibyl.db");
    const holder = await holdWriteLock(file, 300);
    const handle = connectDatabase(`sqlite:${file}`);
    try {
      const mode = await sql`pragma journal_mode`.execute(handle.kysely);
      expect(mode.rows).toEqual([{ journal_mode: "wal" }]);
      const tables = await sql`select name from sqlite_master order by name`.execute(handle.kysely);
      expect(tables.rows).toEqual([{ name: "first" }, { name: "second" }]);
    } finally {
      await handle.close();
    }
    expect(await holder.exited).toBe(0);
  });
});
