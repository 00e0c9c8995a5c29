import SqliteDatabase from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestDatabase,
  sessionWaitingOnLock,
  type TestDatabase,
} from "../support/postgres.js";
import { readResults, waitForBatch } from "./support/batch-server.js";
import {
  attemptsOf,
  expectCompletedAndBilledOnce,
  type LineScene,
  startLineScene,
} from "./support/line-scene.js";

const MAX_ATTEMPTS = 3;
const WORKER = { retryBaseMs: 10, maxAttempts: MAX_ATTEMPTS };

/** What each database's driver throws when it turns a transaction away for other work. */
const turnedAway = {
  SQLite: () => new SqliteDatabase.SqliteError("database is locked", "SQLITE_BUSY"),
  PostgreSQL: () =>
    Object.assign(new pg.DatabaseError("could not serialize access", 0, "error"), {
      code: "40001",
    }),
};

describe.each(["SQLite", "PostgreSQL"] as const)(
  "a batch line whose result the %s database turns away",
  (dialect) => {
    let database: TestDatabase | null = null;
    let scene: LineScene;

    beforeAll(async () => {
      if (dialect === "PostgreSQL") database = await createTestDatabase();
      scene = await startLineScene(database?.url, WORKER);
    });

    afterAll(async () => {
      await scene?.close();
      await database?.drop();
    });

    it("runs again, and is answered and charged exactly once", async () => {
      let first = true;
      scene.completions.beforeRecord = () => {
        if (!first) return;
        first = false;
        throw turnedAway[dialect]();
      };
      const before = scene.upstream.requests.length;
      const { openai, org, batchId } = await scene.submit("busy-once");

      await expectCompletedAndBilledOnce(scene.server, openai, org, batchId, "busy-once");
      expect(await attemptsOf(scene.server, batchId)).toBe(2);
      expect(scene.upstream.requests.length - before).toBe(2);
      expect(warningsFor(batchId)).toEqual([
        {
          message: "recording a batch line's result failed; the line runs again",
          details: expect.objectContaining({ line: 1, attempt: 1, err: expect.any(Error) }),
        },
      ]);
    });

    it("gives up after the allowed attempts with attempts_exhausted, charging nothing", async () => {
      scene.completions.beforeRecord = () => {
        throw turnedAway[dialect]();
      };
      const { openai, org, batchId } = await scene.submit("always-busy");

      const batch = await waitForBatch(openai, batchId);
      expect(batch.request_counts).toEqual({ total: 1, completed: 0, failed: 1 });
      const [line] = await readResults(openai, batch.error_file_id);
      expect(line?.response).toBeNull();
      expect(line?.error?.code).toBe("attempts_exhausted");
      expect(await attemptsOf(scene.server, batchId)).toBe(MAX_ATTEMPTS);
      const { ledger } = scene.server.services;
      expect(
        (await ledger.entries(org.organizationId)).filter((entry) => entry.kind === "charge"),
      ).toEqual([]);
      expect(await ledger.held(org.organizationId)).toEqual([]);
      expect(await ledger.balance(org.organizationId)).toBe(1e9);
      expect(warningsFor(batchId).map((warning) => warning.message)).toEqual([
        "recording a batch line's result failed; the line runs again",
        "recording a batch line's result failed; the line runs again",
        "recording a batch line's result failed on its last attempt; the line fails",
      ]);
    });

    function warningsFor(batchId: string) {
      return scene.warnings.filter((warning) => warning.details.batch === batchId);
    }
  },
);

/**
 * PostgreSQL failing a line's result write for real: a session of the test holds the line's row,
 * so the worker's write waits behind it at a known point, and then the test ends that wait.
 */
describe("a batch line whose result write PostgreSQL fails", () => {
  let database: TestDatabase;
  let scene: LineScene;
  let admin: pg.Client;

  beforeAll(async () => {
    database = await createTestDatabase();
    scene = await startLineScene(database.url, WORKER);
    admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
  });

  afterAll(async () => {
    await admin?.end();
    await scene?.close();
    await database?.drop();
  });

  /**
   * Submits a line, holds its row once the line is claimed, and resolves with the id of the
   * worker's session once its result write waits for that row. The caller must roll back.
   */
  async function resultWriteWaiting(customId: string) {
    let claimed: () => void = () => undefined;
    const isClaimed = new Promise<void>((resolve) => {
      claimed = resolve;
    });
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let first = true;
    scene.completions.beforeChat = async () => {
      if (!first) return;
      first = false;
      claimed();
      await released;
    };
    const submitted = await scene.submit(customId);
    await isClaimed;
    await admin.query("begin");
    await admin.query("select 1 from batch_lines where batch_id = $1 for update", [
      submitted.batchId,
    ]);
    release();
    for (;;) {
      const pid = await sessionWaitingOnLock(admin, '"response_body"');
      if (pid !== undefined) return { ...submitted, pid };
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  it("runs the line again after its connection is terminated mid-write; answered and charged once", async () => {
    const before = scene.upstream.requests.length;
    const { openai, org, batchId, pid } = await resultWriteWaiting("terminated");
    await admin.query("select pg_terminate_backend($1)", [pid]);
    await admin.query("rollback");

    await expectCompletedAndBilledOnce(scene.server, openai, org, batchId, "terminated");
    expect(await attemptsOf(scene.server, batchId)).toBe(2);
    expect(scene.upstream.requests.length - before).toBe(2);
  });

  it("runs the line again when its charge is chosen as a deadlock's victim; answered and charged once", async () => {
    const before = scene.upstream.requests.length;
    const { openai, org, batchId } = await resultWriteWaiting("deadlocked");
    // The charge holds its hold's row and waits for the line's; asking for the hold's row
    // closes the cycle. The charge has waited longer, so PostgreSQL aborts it.
    await admin.query("select 1 from reservations where reference = $1 for update", [
      `${batchId}:deadlocked`,
    ]);
    await admin.query("rollback");

    await expectCompletedAndBilledOnce(scene.server, openai, org, batchId, "deadlocked");
    expect(await attemptsOf(scene.server, batchId)).toBe(2);
    expect(scene.upstream.requests.length - before).toBe(2);
  });
});
