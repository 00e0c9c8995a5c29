import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type BatchServer,
  batchRequest,
  chatLine,
  jsonl,
  startBatchServer,
  uploadBatchFile,
  waitForBatch,
} from "./support/batch-server.js";

describe("batch validation", () => {
  let server: BatchServer;
  beforeAll(async () => {
    server = await startBatchServer({
      config: {
        models: [
          { id: "sibyl-baseline", provider: "baseline" },
          { id: "other-model", provider: "baseline" },
        ],
      },
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it("fails the batch with every problem, each with its code, param and 1-based line", async () => {
    const { openai } = await server.client();
    const content = jsonl([
      chatLine("ok-1"),
      "[1, 2]",
      { method: "POST", url: "/v1/chat/completions", body: chatLine("x").body },
      chatLine("ok-1"),
      { ...chatLine("a"), url: "/v1/completions" },
      chatLine("b", "no-such-model"),
      chatLine("c", "other-model"),
      chatLine("d", "sibyl-baseline", { stream: true }),
      { ...chatLine("e"), method: "GET" },
      { custom_id: "f", method: "POST", url: "/v1/chat/completions" },
      chatLine("g", "sibyl-baseline", { temperature: 7 }),
      { custom_id: "h", method: "POST", url: "/v1/chat/completions", body: { messages: [] } },
    ]);
    const file = await uploadBatchFile(openai, content);
    const batch = await waitForBatch(
      openai,
      (await openai.batches.create(batchRequest(file.id))).id,
    );
    expect(batch.status).toBe("failed");
    expect(batch.failed_at).toBeTypeOf("number");
    expect(batch.in_progress_at).toBeNull();
    expect(batch.output_file_id).toBeNull();
    const errors = batch.errors?.data ?? [];
    const found = errors.map((e) => [e.line, e.code, e.param]);
    expect(found).toEqual(
      expect.arrayContaining([
        [2, "invalid_json_line", null],
        [3, "missing_required_parameter", "custom_id"],
        [4, "duplicate_custom_id", "custom_id"],
        [5, "invalid_url", "url"],
        [6, "model_not_found", "body.model"],
        [7, "mismatched_model", "body.model"],
        [8, "streaming_unsupported", "body.stream"],
        [9, "invalid_method", "method"],
        [10, "missing_required_parameter", "body"],
        [11, "invalid_request", "body.temperature"],
        [12, "invalid_request", "body.model"],
      ]),
    );
    expect(errors.find((e) => e.line === 1)).toBeUndefined();
    for (const error of errors) expect(error.message).toBeTruthy();
    expect(batch.request_counts).toEqual({ total: 0, completed: 0, failed: 0 });
  });

  it("fails a batch whose input file does not exist, naming the file", async () => {
    const { openai } = await server.client();
    const created = await openai.batches.create(batchRequest("file-doesnotexist"));
    expect(created.status).toBe("validating");
    const batch = await waitForBatch(openai, created.id);
    expect(batch.status).toBe("failed");
    expect(batch.errors?.data?.[0]).toMatchObject({
      code: "file_not_found",
      param: "input_file_id",
    });
    expect(batch.errors?.data?.[0]?.message).toContain("file-doesnotexist");
  });

  it("treats another organization's input file as unknown", async () => {
    const owner = await server.client();
    const other = await server.client();
    const file = await uploadBatchFile(owner.openai, jsonl([chatLine("1")]));
    const batch = await waitForBatch(
      other.openai,
      (await other.openai.batches.create(batchRequest(file.id))).id,
    );
    expect(batch.status).toBe("failed");
    expect(batch.errors?.data?.[0]?.code).toBe("file_not_found");
  });

  it("accepts blank lines and a missing final newline", async () => {
    const { openai } = await server.client();
    const content = `${JSON.stringify(chatLine("1"))}\n\n${JSON.stringify(chatLine("2"))}`;
    const file = await uploadBatchFile(openai, content);
    const batch = await waitForBatch(
      openai,
      (await openai.batches.create(batchRequest(file.id))).id,
    );
    expect(batch.status).toBe("completed");
    expect(batch.request_counts).toEqual({ total: 2, completed: 2, failed: 0 });
  });
});

describe("POST /v1/batches request checks", () => {
  let server: BatchServer;
  beforeAll(async () => {
    server = await startBatchServer({ worker: false });
  });
  afterAll(async () => {
    await server.close();
  });

  const post = async (body: unknown, apiKey?: string) =>
    fetch(`${server.url}/v1/batches`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
      },
      body: JSON.stringify(body),
    });

  it("rejects unknown properties, wrong endpoint or window and bad expiry with 422", async () => {
    const { org } = await server.client();
    const cases = [
      { ...batchRequest("file-x"), extra: true },
      { ...batchRequest("file-x"), endpoint: "/v1/completions" },
      { ...batchRequest("file-x"), completion_window: "48h" },
      { ...batchRequest("file-x"), input_file_id: "" },
      { ...batchRequest("file-x"), output_expires_after: { anchor: "created_at", seconds: 60 } },
      { ...batchRequest("file-x"), output_expires_after: { anchor: "now", seconds: 3600 } },
      { ...batchRequest("file-x"), metadata: { key: 5 } },
      { endpoint: "/v1/chat/completions", completion_window: "24h" },
    ];
    for (const body of cases) {
      const response = await post(body, org.apiKey);
      expect(response.status, JSON.stringify(body)).toBe(422);
      const payload = (await response.json()) as { error: { message: string }; detail: unknown[] };
      expect(payload.error.message).toBeTruthy();
      expect(payload.detail.length).toBeGreaterThan(0);
    }
  });

  it("needs an API key", async () => {
    expect((await post(batchRequest("file-x"))).status).toBe(401);
    expect((await fetch(`${server.url}/v1/batches`)).status).toBe(401);
    expect((await fetch(`${server.url}/v1/batches/batch_x`)).status).toBe(401);
    expect(
      (await fetch(`${server.url}/v1/batches/batch_x/cancel`, { method: "POST" })).status,
    ).toBe(401);
  });

  it("keeps metadata and the output expiry", async () => {
    const { openai } = await server.client();
    const batch = await openai.batches.create({
      ...batchRequest("file-x"),
      metadata: { a: "1" },
      output_expires_after: { anchor: "created_at", seconds: 3600 },
    });
    expect(batch).toMatchObject({
      object: "batch",
      endpoint: "/v1/chat/completions",
      completion_window: "24h",
      metadata: { a: "1" },
      status: "validating",
      expires_at: batch.created_at + 86_400,
      request_counts: { total: 0, completed: 0, failed: 0 },
    });
  });
});
