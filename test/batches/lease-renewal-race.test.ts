import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBatchWorker } from "../../src/cli/worker.js";
import { type FakeUpstream, startFakeUpstream } from "../support/fake-upstream.js";
import { eventually } from "../support/polling.js";
import {
  createTestDatabase,
  sessionWaitingOnLock,
  type TestDatabase,
} from "../support/postgres.js";
import { silentLog } from "../support/silent-log.js";
import {
  type BatchServer,
  batchRequest,
  chatLine,
  jsonl,
  startBatchServer,
  uploadBatchFile,
} from "./support/batch-server.js";
import { expectCompletedAndBilledOnce } from "./support/line-scene.js";
import { pricedModel } from "./support/priced-model.js";

const HOUR_MS = 3_600_000;
const USAGE = { prompt_tokens: 1000, completion_tokens: 500 };

/**
 * On PostgreSQL the sweep for dead workers' lines reads which leases ran out, then moves those
 * lines. A lease renewed in between keeps its line running with its worker, so that line's hold
 * must stay too: released, the line's charge would find no hold and the answer would go unbilled.
 */
describe("a batch line whose lease is renewed while the sweep reclaims it", () => {
  let database: TestDatabase;
  let upstream: FakeUpstream;
  let server: BatchServer;
  let admin: pg.Client;

  beforeAll(async () => {
    database = await createTestDatabase();
    upstream = await startFakeUpstream();
    upstream.setDefault({ usage: USAGE });
    server = await startBatchServer({
      worker: false,
      databaseUrl: database.url,
      config: { models: [pricedModel(upstream.url)] },
    });
    admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
  });

  afterAll(async () => {
    await admin?.end();
    await server?.close();
    await upstream?.close();
    await database?.drop();
  });

  it("keeps the line running and its hold held; the line is charged once", async () => {
    let answer: () => void = () => undefined;
    upstream.enqueue({ usage: USAGE, gate: new Promise((resolve) => (answer = resolve)) });
    // The running worker's clock lags two hours: to everyone else its leases ran out an hour ago.
    const lagging = { now: () => Date.now() - 2 * HOUR_MS };
    const running = createBatchWorker({ ...server.services, clock: lagging }, silentLog, {
      pollMs: 20,
      leaseMs: HOUR_MS,
      concurrency: 1,
    });
    const sweeper: { stop(): Promise<void> } = { stop: async () => undefined };
    try {
      const { openai, org } = await server.client("1");
      const file = await uploadBatchFile(openai, jsonl([chatLine("only", "priced")]));
      const { id: batchId } = await openai.batches.create(batchRequest(file.id));
      // The line's call reached the model: its hold is placed.
      await eventually(async () => (upstream.requests.length === 1 ? true : undefined));
      const reference = `${batchId}:only`;
      const holds = async () =>
        (await server.services.ledger.held(org.organizationId)).map((hold) => hold.reference);
      expect(await holds()).toEqual([reference]);

      // The running worker renews its lease: its update holds the line's row until it commits.
      await admin.query("begin");
      await admin.query("update batch_lines set lease_until = $1 where batch_id = $2", [
        Date.now() + HOUR_MS,
        batchId,
      ]);
      const healthy = createBatchWorker(server.services, silentLog, { pollMs: 20 });
      sweeper.stop = () => healthy.stop();
      // The sweep waits for the line's row.
      const sweepPid = await eventually(() => sessionWaitingOnLock(admin, 'update "batch_lines"'));
      await admin.query("commit");
      // The sweep's transaction ended.
      await eventually(async () => {
        const state = await admin.query<{ state: string }>(
          "select state from pg_stat_activity where pid = $1",
          [sweepPid],
        );
        return state.rows[0]?.state === "idle" ? true : undefined;
      });

      const [line] = (
        await admin.query<{ status: string }>(
          "select status from batch_lines where batch_id = $1",
          [batchId],
        )
      ).rows;
      expect(line?.status).toBe("running");
      expect(await holds()).toEqual([reference]);

      answer();
      await expectCompletedAndBilledOnce(server, openai, org, batchId, "only");
      expect(upstream.requests.length).toBe(1);
    } finally {
      answer();
      await running.stop();
      await sweeper.stop();
    }
  });
});
