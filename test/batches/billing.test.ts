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

describe("batch billing through the completion pipeline", () => {
  let upstream: FakeUpstream;
  let server: BatchServer;
  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.setDefault({ usage: { prompt_tokens: 1000, completion_tokens: 500 } });
    server = await startBatchServer({
      config: {
        models: [pricedModel(upstream.url)],
        batches: { price_multiplier: 0.5, concurrency: 4 },
      },
    });
  });
  afterAll(async () => {
    await server.close();
    await upstream.close();
  });

  it("charges each line once at the batch price multiplier", async () => {
    const { openai, org } = await server.client("1");
    const direct = await openai.chat.completions.create({
      model: "priced",
      messages: [{ role: "user", content: "Will it rain?" }],
    });
    const directCost = (direct.usage as unknown as { cost_usd: number }).cost_usd;
    const before = await server.services.ledger.balance(org.organizationId);

    const file = await uploadBatchFile(
      openai,
      jsonl([chatLine("a", "priced"), chatLine("b", "priced")]),
    );
    const batch = await waitForBatch(
      openai,
      (await openai.batches.create(batchRequest(file.id))).id,
    );
    expect(batch.status).toBe("completed");
    expect(batch.usage).toMatchObject({
      input_tokens: 2000,
      output_tokens: 1000,
      total_tokens: 3000,
    });
    const output = await readResults(openai, batch.output_file_id);
    for (const line of output) {
      const usage = line.response?.body.usage as { cost_usd: number };
      expect(usage.cost_usd).toBeCloseTo(directCost * 0.5, 9);
    }
    const after = await server.services.ledger.balance(org.organizationId);
    expect((before - after) / 1e9).toBeCloseTo(directCost, 9);
  });

  it("fails lines that find no credits with insufficient_credits and still completes the batch", async () => {
    // No worker yet: the batch is created with credits, which are gone when its lines run.
    const idle = await startBatchServer({
      worker: false,
      config: { models: [pricedModel(upstream.url)], batches: { price_multiplier: 0.5 } },
    });
    const { openai, org } = await idle.client("0.005");
    const file = await uploadBatchFile(
      openai,
      jsonl(Array.from({ length: 6 }, (_, i) => chatLine(`broke-${i}`, "priced"))),
    );
    const created = await openai.batches.create(batchRequest(file.id));
    await idle.services.database.db.query
      .updateTable("organizations")
      .set({ balance_nanos: 0 })
      .where("id", "=", org.organizationId)
      .execute();
    const worker = createBatchWorker(idle.services, silentLog, { pollMs: 20 });
    try {
      const batch = await waitForBatch(openai, created.id);
      expect(batch.status).toBe("completed");
      expect(batch.request_counts).toEqual({ total: 6, completed: 0, failed: 6 });
      expect(batch.output_file_id).toBeNull();
      const errors = await readResults(openai, batch.error_file_id);
      expect(errors).toHaveLength(6);
      for (const line of errors) {
        expect(line.response?.status_code).toBe(402);
        expect(line.response?.body).toMatchObject({ error: { code: "insufficient_credits" } });
        expect(line.error).toBeNull();
      }
    } finally {
      await worker.stop();
      await idle.close();
    }
  });
});
