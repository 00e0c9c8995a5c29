import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBatchWorker } from "../../src/cli/worker.js";
import { type FakeUpstream, startFakeUpstream } from "../support/fake-upstream.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { silentLog } from "../support/silent-log.js";
import {
  batchRequest,
  chatLine,
  jsonl,
  uploadBatchFile,
  waitForBatch,
} from "./support/batch-server.js";
import { pricedModel } from "./support/priced-model.js";

/** 10 prompt and 100 completion tokens at half of $0.000001 and $0.000002. */
const LINE_COST_USD = 0.000105;

const lines = (count: number) =>
  jsonl(Array.from({ length: count }, (_, i) => chatLine(`q${i}`, "priced", { max_tokens: 200 })));

type CostedBatch = OpenAI.Batches.Batch & { cost_usd: number };

describe.each(["sqlite", "postgres"] as const)("the cost of a batch on %s", (kind) => {
  let upstream: FakeUpstream;
  let postgres: TestDatabase | null = null;
  let server: TestServer;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.setDefault({ usage: { prompt_tokens: 10, completion_tokens: 100 } });
    postgres = kind === "postgres" ? await createTestDatabase() : null;
    server = await startTestServer({
      config: {
        models: [pricedModel(upstream.url)],
        batches: { price_multiplier: 0.5 },
      },
      ...(postgres ? { databaseUrl: postgres.url } : {}),
    });
  });
  afterAll(async () => {
    await server?.close();
    await upstream?.close();
    await postgres?.drop();
  });

  async function createBatch(openai: OpenAI, count: number) {
    const file = await uploadBatchFile(openai, lines(count));
    return openai.batches.create(batchRequest(file.id));
  }

  async function newClient() {
    const org = await server.createOrg("1");
    return new OpenAI({ apiKey: org.apiKey, baseURL: `${server.url}/v1`, maxRetries: 0 });
  }

  it("is 0 before any line runs, then what its lines were charged, in retrieve and list", async () => {
    const openai = await newClient();
    const stranger = await newClient();
    const three = await createBatch(openai, 3);
    const two = await createBatch(openai, 2);
    // The same custom_ids in another organization's batch are charged to that one alone.
    const theirs = await createBatch(stranger, 4);
    expect((three as CostedBatch).cost_usd).toBe(0);

    const worker = createBatchWorker(server.services, silentLog, { pollMs: 20 });
    try {
      await Promise.all([
        waitForBatch(openai, three.id),
        waitForBatch(openai, two.id),
        waitForBatch(stranger, theirs.id),
      ]);
    } finally {
      await worker.stop();
    }
    const retrieved = (await openai.batches.retrieve(three.id)) as CostedBatch;
    expect(retrieved.status).toBe("completed");
    expect(retrieved.cost_usd).toBeCloseTo(3 * LINE_COST_USD, 12);

    const listed = (await openai.batches.list()).data as CostedBatch[];
    expect(listed.map((batch) => [batch.id, batch.cost_usd])).toEqual([
      [two.id, 2 * LINE_COST_USD],
      [three.id, 3 * LINE_COST_USD],
    ]);
    const foreign = (await stranger.batches.retrieve(theirs.id)) as CostedBatch;
    expect(foreign.cost_usd).toBeCloseTo(4 * LINE_COST_USD, 12);

    // The batch's cost is exactly its lines' charges in the ledger.
    const charges = await server.services.database.db.query
      .selectFrom("ledger_entries")
      .select("amount_nanos")
      .where("reference", "like", `${three.id}:%`)
      .where("kind", "=", "charge")
      .execute();
    const charged = -charges.reduce((sum, row) => sum + row.amount_nanos, 0);
    expect(retrieved.cost_usd).toBe(charged / 1e9);
  });

  it("is documented in /openapi.json as an extension", async () => {
    const spec = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      components: { schemas: { BatchObject: { properties: Record<string, { type: string }> } } };
    };
    expect(spec.components.schemas.BatchObject.properties.cost_usd?.type).toBe("number");
  });
});
