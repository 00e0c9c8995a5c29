import fc from "fast-check";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBatchWorker } from "../../src/cli/worker.js";
import type { CompletionPipeline } from "../../src/completions/pipeline.js";
import type { ChatCompletionBody } from "../../src/completions/schema.js";
import { type FakeUpstream, startFakeUpstream } from "../support/fake-upstream.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { silentLog } from "../support/silent-log.js";
import {
  type BatchServer,
  batchRequest,
  chatLine,
  jsonl,
  type RequestLine,
  readResults,
  startBatchServer,
  uploadBatchFile,
  waitForBatch,
} from "./support/batch-server.js";
import { pricedModel } from "./support/priced-model.js";

const MULTIPLIER = 0.5;

/** A line on the priced model, its hold sized on `maxTokens`. */
const pricedLine = (customId: string, maxTokens: number) =>
  chatLine(customId, "priced", { max_tokens: maxTokens });

describe.each(["sqlite", "postgres"] as const)("refusing a batch at creation, on %s", (dialect) => {
  let upstream: FakeUpstream;
  let database: TestDatabase | null = null;
  let server: BatchServer;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.setDefault({ usage: { prompt_tokens: 10, completion_tokens: 10 } });
    if (dialect === "postgres") database = await createTestDatabase();
    server = await startBatchServer({
      worker: false,
      config: {
        models: [pricedModel(upstream.url)],
        batches: { price_multiplier: MULTIPLIER },
      },
      ...(database ? { databaseUrl: database.url } : {}),
    });
  });

  afterAll(async () => {
    await server?.close();
    await database?.drop();
    await upstream?.close();
  });

  /** What a line holds when it runs, at `multiplier` times its price. */
  function holdOf(organizationId: string, line: RequestLine, multiplier = MULTIPLIER): number {
    const pipeline = server.services.completions as CompletionPipeline;
    return pipeline.chatHoldNanos(
      { organizationId, priceMultiplier: multiplier },
      line.body as unknown as ChatCompletionBody,
    );
  }

  async function setBalance(organizationId: string, nanos: number): Promise<void> {
    await server.services.database.db.query
      .updateTable("organizations")
      .set({ balance_nanos: nanos })
      .where("id", "=", organizationId)
      .execute();
  }

  /** Creates the batch of `lines`: the batch, or the status and error of the refusal. */
  async function create(openai: OpenAI, lines: unknown[]) {
    const file = await uploadBatchFile(openai, jsonl(lines));
    return openai.batches.create(batchRequest(file.id)).then(
      (batch) => ({ batch, refused: null }),
      (error: { status: number; error: { code: string; message: string } }) => ({
        batch: null,
        refused: { status: error.status, ...error.error },
      }),
    );
  }

  async function runToEnd(openai: OpenAI, batchId: string) {
    const worker = createBatchWorker(server.services, silentLog, { pollMs: 20 });
    try {
      return await waitForBatch(openai, batchId);
    } finally {
      await worker.stop();
    }
  }

  it("refuses with 402 when the balance is short of the dearest line, at the batch price", async () => {
    const { openai, org } = await server.client("0");
    const lines = [pricedLine("small", 16), pricedLine("dear", 512), pricedLine("mid", 100)];
    const dearest = holdOf(org.organizationId, lines[1] as RequestLine);
    expect(dearest).toBeGreaterThan(holdOf(org.organizationId, lines[2] as RequestLine));
    await setBalance(org.organizationId, dearest - 1);
    const { refused } = await create(openai, lines);
    expect(refused).toMatchObject({ status: 402, code: "insufficient_credits" });
    expect(refused?.message).toContain("the dearest up to $");
    expect(refused?.message).toContain("all 3 together");
    expect((await openai.batches.list()).data).toEqual([]);

    // Exactly the dearest line's hold at the batch price (half its price on its own) suffices.
    expect(holdOf(org.organizationId, lines[1] as RequestLine, 1)).toBeGreaterThan(dearest);
    await setBalance(org.organizationId, dearest);
    const { batch } = await create(openai, [lines[1]]);
    expect(batch?.status).toBe("validating");
    // And it is the hold the line takes when it runs: it fits, and runs.
    const done = await runToEnd(openai, batch?.id as string);
    expect(done.request_counts).toEqual({ total: 1, completed: 1, failed: 0 });
  });

  it("estimates exactly what the line holds when it runs: a nano-dollar less and it cannot run", async () => {
    const { openai, org } = await server.client("0");
    const line = pricedLine("only", 512);
    const hold = holdOf(org.organizationId, line);
    await setBalance(org.organizationId, hold);
    const { batch } = await create(openai, [line]);
    expect(batch).not.toBeNull();
    await setBalance(org.organizationId, hold - 1);
    const done = await runToEnd(openai, batch?.id as string);
    expect(done.request_counts).toEqual({ total: 1, completed: 0, failed: 1 });
    const [error] = await readResults(openai, done.error_file_id);
    expect(error?.response?.status_code).toBe(402);
  });

  it("refuses with 403 when the key's spend limit leaves less than the dearest line", async () => {
    const { org } = await server.client("10");
    const line = pricedLine("only", 512);
    const hold = holdOf(org.organizationId, line);
    const keyed = async (spendLimitNanos: number) => {
      const key = await server.services.apiKeys.issue(org.organizationId, undefined, {
        scope: "inference",
        spendLimitNanos,
      });
      return new OpenAI({ apiKey: key.api_key, baseURL: `${server.url}/v1`, maxRetries: 0 });
    };
    const { refused } = await create(await keyed(hold - 1), [line]);
    expect(refused).toMatchObject({ status: 403, code: "key_spend_limit_reached" });
    expect(refused?.message).toContain("will not help");
    expect((await create(await keyed(hold), [line])).batch?.status).toBe("validating");
  });

  it("does not refuse a batch whose file fails validation: it runs no line", async () => {
    const { openai } = await server.client("0");
    const { batch } = await create(openai, [
      pricedLine("a", 512),
      { ...pricedLine("b", 512), method: "GET" },
    ]);
    expect(batch?.status).toBe("validating");
    const done = await runToEnd(openai, batch?.id as string);
    expect(done.status).toBe("failed");
  });

  it("counts nothing for a line the completion refuses before holding", async () => {
    const { openai, org } = await server.client("0");
    // Past the context length: the line fails with a 400 when it runs, holding nothing.
    const tooLong = chatLine("long", "priced", {
      messages: [{ role: "user", content: "rain ".repeat(20_000) }],
    });
    expect(holdOf(org.organizationId, tooLong)).toBe(0);
    expect((await create(openai, [tooLong])).batch?.status).toBe("validating");
    const { refused } = await create(openai, [tooLong, pricedLine("b", 16)]);
    expect(refused).toMatchObject({ status: 402, code: "insufficient_credits" });
  });

  it("refuses exactly when the balance is less than the dearest line's hold", async () => {
    const { openai, org } = await server.client("0");
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 512 }), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: -2, max: 2 }),
        fc.boolean(),
        async (maxTokens, offset, nearDearest) => {
          const lines = maxTokens.map((tokens, i) => pricedLine(`p${i}`, tokens));
          const holds = lines.map((line) => holdOf(org.organizationId, line));
          const dearest = Math.max(...holds);
          // Near the dearest line's hold, or near the cheapest's (below which nothing could run).
          const balance = Math.max(0, (nearDearest ? dearest : Math.min(...holds)) + offset);
          await setBalance(org.organizationId, balance);
          const { batch, refused } = await create(openai, lines);
          if (balance < dearest) {
            expect(refused).toMatchObject({ status: 402, code: "insufficient_credits" });
          } else {
            expect(refused).toBeNull();
            await openai.batches.cancel(batch?.id as string);
          }
        },
      ),
      { numRuns: 25 },
    );
  });
});
