import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBatchWorker } from "../../src/cli/worker.js";
import { createKey } from "../organization/support/api.js";
import { type FakeUpstream, startFakeUpstream } from "../support/fake-upstream.js";
import { request } from "../support/http.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { startTestServer, type TestOrg, type TestServer } from "../support/server.js";
import { silentLog } from "../support/silent-log.js";
import {
  batchRequest,
  chatLine,
  jsonl,
  readResults,
  uploadBatchFile,
  waitForBatch,
} from "./support/batch-server.js";
import { pricedModel } from "./support/priced-model.js";

const DAY = 86_400;

/** Every line asks the same question, so each holds and costs the same. */
const line = (customId: string) =>
  chatLine(customId, "priced", {
    max_tokens: 200,
    messages: [{ role: "user", content: "Will it rain in Paris tomorrow?" }],
  });
const lines = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => line(`${prefix}-${i}`));

interface KeyUsage {
  requests: number;
  costNanos: number;
}

describe.each(["sqlite", "postgres"] as const)("batches spend under their key on %s", (kind) => {
  let upstream: FakeUpstream;
  let postgres: TestDatabase | null = null;
  let server: TestServer;
  /** What one line holds (its worst case) and what it is charged, in nano-dollars. */
  let holdNanos: number;
  let costNanos: number;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.setDefault({ usage: { prompt_tokens: 10, completion_tokens: 100 } });
    postgres = kind === "postgres" ? await createTestDatabase() : null;
    server = await startTestServer({
      config: {
        models: [pricedModel(upstream.url)],
        // One line at a time, so how many lines fit under a limit is exact.
        batches: { price_multiplier: 0.5, concurrency: 1 },
      },
      ...(postgres ? { databaseUrl: postgres.url } : {}),
    });

    // A line of the organization's own admin key shows what a line holds and costs.
    const org = await server.createOrg("1");
    const batch = await runBatch(client(org.apiKey), jsonl([line("probe")]));
    const reference = `${batch.id}:probe`;
    const hold = await server.services.database.db.query
      .selectFrom("reservations")
      .select(["amount_nanos", "charged_nanos"])
      .where("reference", "=", reference)
      .executeTakeFirstOrThrow();
    holdNanos = hold.amount_nanos;
    costNanos = hold.charged_nanos ?? 0;
    // 10 prompt and 100 completion tokens at the batch's half price.
    expect(costNanos).toBe(105_000);
    expect(holdNanos).toBeGreaterThan(costNanos);
  });
  afterAll(async () => {
    await server?.close();
    await upstream?.close();
    await postgres?.drop();
  });

  function client(apiKey: string): OpenAI {
    return new OpenAI({ apiKey, baseURL: `${server.url}/v1`, maxRetries: 0 });
  }

  /** Uploads and creates a batch with `openai`'s key, without running it. */
  async function createBatch(openai: OpenAI, content: string) {
    const file = await uploadBatchFile(openai, content);
    return openai.batches.create(batchRequest(file.id));
  }

  /** Runs the batches already created to their end with a worker, then stops the worker. */
  async function runCreated(openai: OpenAI, ids: string[]) {
    const running = createBatchWorker(server.services, silentLog, { pollMs: 20 });
    try {
      return await Promise.all(ids.map((id) => waitForBatch(openai, id)));
    } finally {
      await running.stop();
    }
  }

  async function runBatch(openai: OpenAI, content: string) {
    const created = await createBatch(openai, content);
    const [batch] = await runCreated(openai, [created.id]);
    if (!batch) throw new Error("the batch did not finish");
    return batch;
  }

  async function key(orgKey: string, terms: Record<string, unknown>) {
    const created = await createKey(server.url, orgKey, terms);
    const row = await server.services.database.db.query
      .selectFrom("api_keys")
      .select(["spend_limit_nanos", "spent_nanos"])
      .where("id", "=", created.id)
      .executeTakeFirstOrThrow();
    return { id: created.id, value: created.value, limitNanos: row.spend_limit_nanos };
  }

  async function spentNanos(keyId: string): Promise<number> {
    const row = await server.services.database.db.query
      .selectFrom("api_keys")
      .select("spent_nanos")
      .where("id", "=", keyId)
      .executeTakeFirstOrThrow();
    return row.spent_nanos;
  }

  /** Requests and cost per key from the usage API, over every day the tests may span. */
  async function usageByKey(org: TestOrg): Promise<Map<string | null, KeyUsage>> {
    const now = Math.floor(Date.now() / 1000);
    const response = await request(
      server.url,
      `/v1/organization/usage/completions?start_time=${now - DAY}&end_time=${now + DAY}&group_by=api_key_id`,
      { apiKey: org.apiKey },
    );
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const page = response.body as {
      data: {
        results: { api_key_id: string | null; num_model_requests: number; cost_usd: number }[];
      }[];
    };
    const byKey = new Map<string | null, KeyUsage>();
    for (const bucket of page.data) {
      for (const result of bucket.results) {
        const sum = byKey.get(result.api_key_id) ?? { requests: 0, costNanos: 0 };
        sum.requests += result.num_model_requests;
        sum.costNanos += Math.round(result.cost_usd * 1e9);
        byKey.set(result.api_key_id, sum);
      }
    }
    return byKey;
  }

  /** What the ledger charged the organization under the batch's line references. */
  async function chargedForBatch(org: TestOrg, batchId: string) {
    const entries = await server.services.ledger.entries(org.organizationId);
    const charges = entries.filter(
      (entry) => entry.kind === "charge" && entry.reference?.startsWith(`${batchId}:`),
    );
    return {
      nanos: -charges.reduce((sum, entry) => sum + entry.amount_nanos, 0),
      references: new Set(charges.map((entry) => entry.reference)),
    };
  }

  /** Lines that fit under a limit when each holds its worst case and is charged its cost. */
  const linesWithin = (limitNanos: number) => Math.floor((limitNanos - holdNanos) / costNanos) + 1;

  it("stops charging a limited key's batch at the limit; the rest fail with 403 key_spend_limit_reached", async () => {
    const org = await server.createOrg("1");
    const limited = await key(org.apiKey, {
      spend_limit_usd: (holdNanos + 3.5 * costNanos) / 1e9,
    });
    const limitNanos = limited.limitNanos ?? 0;
    const fitting = linesWithin(limitNanos);
    expect(fitting).toBe(4);
    const balanceBefore = await server.services.ledger.balance(org.organizationId);
    const upstreamBefore = upstream.requests.length;

    const batch = await runBatch(client(limited.value), jsonl(lines("q", 8)));

    expect(batch.status).toBe("completed");
    expect(batch.request_counts).toEqual({ total: 8, completed: fitting, failed: 8 - fitting });
    // Refused lines never reached the model.
    expect(upstream.requests.length - upstreamBefore).toBe(fitting);
    const errors = await readResults(client(limited.value), batch.error_file_id);
    expect(errors).toHaveLength(8 - fitting);
    for (const error of errors) {
      expect(error.response?.status_code).toBe(403);
      expect(error.response?.body).toMatchObject({ error: { code: "key_spend_limit_reached" } });
    }
    const output = await readResults(client(limited.value), batch.output_file_id);
    expect(output).toHaveLength(fitting);

    const spent = await spentNanos(limited.id);
    expect(spent).toBe(fitting * costNanos);
    expect(spent).toBeLessThanOrEqual(limitNanos);
    // The ledger charged exactly the lines in the output file, and the refused ones nothing.
    const charged = await chargedForBatch(org, batch.id);
    expect(charged.nanos).toBe(spent);
    expect(charged.references).toEqual(
      new Set(output.map((result) => `${batch.id}:${result.custom_id}`)),
    );
    expect(balanceBefore - (await server.services.ledger.balance(org.organizationId))).toBe(spent);
    expect(await server.services.ledger.held(org.organizationId)).toEqual([]);

    // Usage names the key, and the organization's own key used nothing.
    const usage = await usageByKey(org);
    expect(usage.get(limited.id)).toEqual({ requests: fitting, costNanos: spent });
    expect(usage.has(org.apiKeyId)).toBe(false);
    expect(usage.has(null)).toBe(false);

    // The key is at its limit for its own requests too.
    const refused = await client(limited.value)
      .chat.completions.create({
        model: "priced",
        max_tokens: 200,
        messages: [{ role: "user", content: "Will it rain in Paris tomorrow?" }],
      })
      .then(
        () => null,
        (error: unknown) => error as { status: number; code: string },
      );
    expect(refused).toMatchObject({ status: 403, code: "key_spend_limit_reached" });
  });

  it("runs a revoked key's batch on, still held to the key's limit and recorded under it", async () => {
    const org = await server.createOrg("1");
    const limited = await key(org.apiKey, {
      spend_limit_usd: (holdNanos + 1.5 * costNanos) / 1e9,
    });
    const fitting = linesWithin(limited.limitNanos ?? 0);
    expect(fitting).toBe(2);
    const created = await createBatch(client(limited.value), jsonl(lines("r", 4)));
    const revoked = await request(server.url, `/v1/organization/api_keys/${limited.id}`, {
      method: "DELETE",
      apiKey: org.apiKey,
    });
    expect(revoked.status).toBe(200);
    expect((await request(server.url, "/v1/batches", { apiKey: limited.value })).status).toBe(401);

    const [batch] = await runCreated(client(org.apiKey), [created.id]);

    expect(batch?.status).toBe("completed");
    expect(batch?.request_counts).toEqual({ total: 4, completed: fitting, failed: 4 - fitting });
    const errors = await readResults(client(org.apiKey), batch?.error_file_id);
    expect(errors.map((error) => error.response?.body)).toEqual(
      Array.from({ length: 4 - fitting }, () =>
        expect.objectContaining({
          error: expect.objectContaining({ code: "key_spend_limit_reached" }),
        }),
      ),
    );
    expect(await spentNanos(limited.id)).toBe(fitting * costNanos);
    expect((await usageByKey(org)).get(limited.id)).toEqual({
      requests: fitting,
      costNanos: fitting * costNanos,
    });
  });

  it("runs an expired key's batch to the end, counting its spend against the key", async () => {
    const org = await server.createOrg("1");
    const now = Math.floor(Date.now() / 1000);
    const expiring = await key(org.apiKey, { spend_limit_usd: 1, expires_at: now + 3600 });
    const created = await createBatch(client(expiring.value), jsonl(lines("e", 3)));
    // The key's expiry passes while the batch waits for a worker.
    await server.services.database.db.query
      .updateTable("api_keys")
      .set({ expires_at: now - 1 })
      .where("id", "=", expiring.id)
      .execute();
    // Written behind the service's back on its own connection: tell its key cache, as Sibyl's
    // own key changes do.
    server.services.apiKeys.keysChanged();
    const refused = await request(server.url, "/v1/batches", { apiKey: expiring.value });
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ error: { code: "api_key_expired" } });

    const [batch] = await runCreated(client(org.apiKey), [created.id]);

    expect(batch?.status).toBe("completed");
    expect(batch?.request_counts).toEqual({ total: 3, completed: 3, failed: 0 });
    expect(await spentNanos(expiring.id)).toBe(3 * costNanos);
    expect((await usageByKey(org)).get(expiring.id)).toEqual({
      requests: 3,
      costNanos: 3 * costNanos,
    });
  });

  it("leaves a batch of a key without a limit unaffected, its usage under the key", async () => {
    const org = await server.createOrg("1");
    const unlimited = await key(org.apiKey, {});
    expect(unlimited.limitNanos).toBeNull();
    const balanceBefore = await server.services.ledger.balance(org.organizationId);

    const batch = await runBatch(client(unlimited.value), jsonl(lines("u", 6)));

    expect(batch.status).toBe("completed");
    expect(batch.request_counts).toEqual({ total: 6, completed: 6, failed: 0 });
    expect(batch.error_file_id).toBeNull();
    // Only keys with a limit keep a spend; the holds were the organization's alone.
    expect(await spentNanos(unlimited.id)).toBe(0);
    const keyed = await server.services.database.db.query
      .selectFrom("reservations")
      .select("api_key_id")
      .where("reference", "like", `${batch.id}:%`)
      .execute();
    expect(keyed).toHaveLength(6);
    expect(keyed.every((row) => row.api_key_id === null)).toBe(true);
    const charged = await chargedForBatch(org, batch.id);
    expect(charged.nanos).toBe(6 * costNanos);
    expect(balanceBefore - (await server.services.ledger.balance(org.organizationId))).toBe(
      6 * costNanos,
    );
    expect((await usageByKey(org)).get(unlimited.id)).toEqual({
      requests: 6,
      costNanos: 6 * costNanos,
    });
  });

  it("runs a batch stored without a key on the organization's balance, its usage under no key", async () => {
    const org = await server.createOrg("1");
    const limited = await key(org.apiKey, { spend_limit_usd: holdNanos / 1e9 });
    const created = await createBatch(client(limited.value), jsonl(lines("o", 3)));
    // As a batch created before batches remembered their key.
    await server.services.database.db.query
      .updateTable("batches")
      .set({ api_key_id: null })
      .where("id", "=", created.id)
      .execute();

    const [batch] = await runCreated(client(org.apiKey), [created.id]);

    expect(batch?.request_counts).toEqual({ total: 3, completed: 3, failed: 0 });
    expect(await spentNanos(limited.id)).toBe(0);
    const usage = await usageByKey(org);
    expect(usage.get(null)).toEqual({ requests: 3, costNanos: 3 * costNanos });
    expect(usage.has(limited.id)).toBe(false);
  });
});
