import { APIError } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UpstreamError } from "../../src/inference/errors.js";
import type { Clock } from "../../src/util/clock.js";
import { until } from "../support/polling.js";
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
import { ScriptedCompletions } from "./support/scripted-completions.js";

const lines = (count: number, prefix: string) =>
  Array.from({ length: count }, (_, i) => chatLine(`${prefix}-${i}`));

describe("batch life cycle", () => {
  let server: BatchServer;
  const completions = new ScriptedCompletions();
  let offsetMs = 0;
  const clock: Clock = { now: () => Date.now() + offsetMs };

  beforeAll(async () => {
    server = await startBatchServer({
      clock,
      worker: {
        concurrency: 2,
        retryBaseMs: 10,
        leaseMs: 60 * 60 * 1000,
        completions: () => completions,
      },
    });
    completions.db = server.services.database.db;
  });
  afterAll(async () => {
    completions.open();
    await server.close();
  });

  it("cancels: running lines finish, unstarted lines never run, partial results are written", async () => {
    const { openai } = await server.client();
    completions.close();
    completions.calls = [];
    const input = lines(10, "cancel");
    const file = await uploadBatchFile(openai, jsonl(input));
    const created = await openai.batches.create(batchRequest(file.id));
    await until(() => completions.calls.length === 2);

    const cancelling = await openai.batches.cancel(created.id);
    expect(cancelling.status).toBe("cancelling");
    expect(cancelling.cancelling_at).toBeTypeOf("number");
    const again = await openai.batches.cancel(created.id);
    expect(again.status).toBe("cancelling");
    expect(again.cancelling_at).toBe(cancelling.cancelling_at);

    completions.open();
    const batch = await waitForBatch(openai, created.id);
    expect(batch.status).toBe("cancelled");
    expect(batch.cancelled_at).toBeTypeOf("number");
    expect(batch.completed_at).toBeNull();
    expect(completions.calls.length).toBe(2);
    expect(batch.request_counts).toEqual({ total: 10, completed: 2, failed: 8 });

    const output = await readResults(openai, batch.output_file_id);
    const errors = await readResults(openai, batch.error_file_id);
    expect(output).toHaveLength(2);
    expect(errors).toHaveLength(8);
    for (const line of errors) {
      expect(line.response).toBeNull();
      expect(line.error?.code).toBe("batch_cancelled");
    }
    const ids = [...output, ...errors].map((l) => l.custom_id).sort();
    expect(ids).toEqual(input.map((l) => l.custom_id).sort());

    const unchanged = await openai.batches.cancel(created.id);
    expect(unchanged.status).toBe("cancelled");
    expect(unchanged.cancelled_at).toBe(batch.cancelled_at);
  });

  it("refuses to cancel a finished batch with 409 and no retry", async () => {
    const { org, openai } = await server.client();
    const file = await uploadBatchFile(openai, jsonl(lines(1, "done")));
    const batch = await waitForBatch(
      openai,
      (await openai.batches.create(batchRequest(file.id))).id,
    );
    expect(batch.status).toBe("completed");
    const response = await fetch(`${server.url}/v1/batches/${batch.id}/cancel`, {
      method: "POST",
      headers: { authorization: `Bearer ${org.apiKey}` },
    });
    expect(response.status).toBe(409);
    expect(response.headers.get("x-should-retry")).toBe("false");
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toContain("completed");
  });

  it("expires: at expires_at unfinished lines fail with batch_expired and results are written", async () => {
    const { openai } = await server.client();
    completions.close();
    completions.calls = [];
    const input = lines(6, "expire");
    const file = await uploadBatchFile(openai, jsonl(input));
    const created = await openai.batches.create({
      ...batchRequest(file.id),
      output_expires_after: { anchor: "created_at", seconds: 7200 },
    });
    await until(() => completions.calls.length === 2);
    offsetMs += 25 * 3600 * 1000;
    completions.open();
    const batch = await waitForBatch(openai, created.id);
    expect(batch.status).toBe("expired");
    expect(batch.expired_at).toBeGreaterThanOrEqual(batch.expires_at as number);
    expect(batch.completed_at).toBeNull();
    const output = await readResults(openai, batch.output_file_id);
    const errors = await readResults(openai, batch.error_file_id);
    expect(completions.calls.length).toBe(2);
    expect(errors.length).toBe(4);
    for (const line of errors) expect(line.error?.code).toBe("batch_expired");
    const ids = [...output, ...errors].map((l) => l.custom_id).sort();
    expect(ids).toEqual(input.map((l) => l.custom_id).sort());
    const errorFile = await openai.files.retrieve(batch.error_file_id as string);
    expect(errorFile.expires_at).toBe(errorFile.created_at + 7200);
  });

  it("retries transient upstream failures; other failures become the line's result", async () => {
    const { openai } = await server.client();
    let failures = 0;
    completions.calls = [];
    completions.before = (body) => {
      const question = body.messages[0]?.content ?? "";
      if (question.includes("flaky-0") && failures < 2) {
        failures += 1;
        throw new UpstreamError("unavailable", "connection reset");
      }
      if (question.includes("flaky-1")) {
        throw new (class extends Error {})("not described");
      }
    };
    const file = await uploadBatchFile(openai, jsonl(lines(3, "flaky")));
    const batch = await waitForBatch(
      openai,
      (await openai.batches.create(batchRequest(file.id))).id,
    );
    completions.before = () => undefined;
    expect(batch.status).toBe("completed");
    expect(batch.request_counts).toEqual({ total: 3, completed: 2, failed: 1 });
    expect(batch.usage).toMatchObject({
      input_tokens: 20,
      output_tokens: 10,
      total_tokens: 30,
      output_tokens_details: { reasoning_tokens: 4 },
    });
    const errors = await readResults(openai, batch.error_file_id);
    expect(errors[0]?.custom_id).toBe("flaky-1");
    expect(errors[0]?.response?.status_code).toBe(500);
  });

  it("lists newest first with an after cursor, and isolates organizations", async () => {
    const { openai } = await server.client();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await openai.batches.create(batchRequest(`file-missing${i}`))).id);
    }
    const newestFirst = [...ids].reverse();
    const first = await openai.batches.list({ limit: 2 });
    expect(first.data.map((b) => b.id)).toEqual(newestFirst.slice(0, 2));
    expect(first.has_more).toBe(true);
    const second = await openai.batches.list({ limit: 2, after: newestFirst[1] });
    expect(second.data.map((b) => b.id)).toEqual(newestFirst.slice(2, 4));
    const all: string[] = [];
    for await (const batch of openai.batches.list({ limit: 2 })) all.push(batch.id);
    expect(all).toEqual(newestFirst);

    const other = await server.client();
    expect((await other.openai.batches.list()).data).toEqual([]);
    for (const call of [
      () => other.openai.batches.retrieve(ids[0] as string),
      () => other.openai.batches.cancel(ids[0] as string),
      () => other.openai.batches.list({ after: ids[0] as string }),
    ]) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(APIError);
      expect((error as APIError).status).toBe(404);
    }
    const limit = await fetch(`${server.url}/v1/batches?limit=101`, {
      headers: { authorization: `Bearer ${other.org.apiKey}` },
    });
    expect(limit.status).toBe(422);
  });
});
