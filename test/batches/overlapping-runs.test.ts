import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBatchWorker } from "../../src/cli/worker.js";
import { type FakeUpstream, startFakeUpstream } from "../support/fake-upstream.js";
import { silentLog } from "../support/silent-log.js";
import {
  type BatchServer,
  batchRequest,
  chatLine,
  jsonl,
  readResults,
  startBatchServer,
  uploadBatchFile,
  waitForBatch,
} from "./support/batch-server.js";
import { pricedModel } from "./support/priced-model.js";

/**
 * Two runs of one line overlap when a worker's lease runs out while it still waits on a slow
 * model (here: its clock lags, so its leases look expired to everyone else). Both runs finish;
 * the line must still be recorded once and charged once.
 */
describe("a batch line run twice at the same time", () => {
  let upstream: FakeUpstream;
  let server: BatchServer;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.setDefault({ usage: { prompt_tokens: 1000, completion_tokens: 500 } });
    server = await startBatchServer({
      worker: false,
      config: {
        models: [pricedModel(upstream.url)],
      },
    });
  });

  afterAll(async () => {
    await server.close();
    await upstream.close();
  });

  it.each([
    ["waits on a slow model", "model"],
    ["stalls before it holds its credits", "hold"],
  ] as const)("is charged once when the first run %s", async (_name, stall) => {
    const { openai, org } = await server.client("1");
    const { completions } = server.services;
    let started = false;
    const stalling = {
      ...completions,
      chat: async (...args: Parameters<typeof completions.chat>) => {
        started = true;
        if (stall === "hold") await new Promise((r) => setTimeout(r, 1500));
        return completions.chat(...args);
      },
    };
    if (stall === "model") {
      upstream.enqueue({
        headersDelayMs: 1500,
        usage: { prompt_tokens: 1000, completion_tokens: 500 },
      });
    }
    const lagging = { now: () => Date.now() - 60_000 };
    const slow = createBatchWorker(
      { ...server.services, clock: lagging, completions: stalling },
      silentLog,
      { pollMs: 20, leaseMs: 500, concurrency: 1 },
    );
    const file = await uploadBatchFile(openai, jsonl([chatLine("only", "priced")]));
    // Counted before the line can run: the slow run's request may reach the model server
    // before this test sees that run start.
    const requestsBefore = upstream.requests.length;
    const created = await openai.batches.create(batchRequest(file.id));
    while (!started) await new Promise((r) => setTimeout(r, 10));

    const healthy = createBatchWorker(server.services, silentLog, { pollMs: 20, leaseMs: 500 });
    try {
      const batch = await waitForBatch(openai, created.id);
      expect(batch.request_counts).toEqual({ total: 1, completed: 1, failed: 0 });
      // Let the slow first run finish and try to settle.
      await slow.stop();
      await healthy.stop();

      expect(upstream.requests.length - requestsBefore).toBeGreaterThanOrEqual(2);
      const [line] = await readResults(openai, batch.output_file_id);
      const usage = line?.response?.body.usage as { cost_usd: number } | undefined;
      const cost = usage?.cost_usd ?? 0;
      expect(cost).toBeGreaterThan(0);
      const charges = (await server.services.ledger.entries(org.organizationId)).filter(
        (entry) => entry.kind === "charge",
      );
      expect(charges.map((entry) => entry.reference)).toEqual([`${created.id}:only`]);
      expect(await server.services.ledger.held(org.organizationId)).toEqual([]);
      expect(await server.services.ledger.balance(org.organizationId)).toBe(
        1e9 - Math.round(cost * 1e9),
      );
    } finally {
      await slow.stop();
      await healthy.stop();
    }
  });
});
