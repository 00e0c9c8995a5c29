import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BatchObjectSchema } from "../../src/batches/batch-object-schema.js";
import { result } from "../research/support/scripted-provider.js";
import { ManualClock } from "../support/manual-clock.js";
import { batchLineProblems } from "./support/batch-lines.js";
import { type ConformanceEnv, call, type Json, MODEL, startConformanceEnv } from "./support/env.js";
import { openAISchemas } from "./support/openai-schemas.js";

const schemas = openAISchemas();

function chatLine(customId: string, extra: Json = {}): Json {
  return {
    custom_id: customId,
    method: "POST",
    url: "/v1/chat/completions",
    body: {
      model: MODEL,
      messages: [{ role: "user", content: `Question ${customId}?` }],
      ...extra,
    },
  };
}

const jsonl = (lines: Json[]) => `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`;

describe("files and batches match OpenAI's schema", () => {
  /** Stands still unless a test moves it: a batch expires only when told to. */
  const clock = new ManualClock(Date.now());
  let env: ConformanceEnv;
  let apiKey: string;

  beforeAll(async () => {
    env = await startConformanceEnv({ clock });
    apiKey = (await env.org("50")).apiKey;
    env.news.script = {
      results: [
        result({
          url: "https://news.example/q",
          title: "A relevant report",
          publishedAt: new Date("2025-05-01T10:00:00Z"),
          snippet: "Something happened.",
        }),
      ],
    };
  });
  afterAll(async () => {
    await env?.close();
  });

  async function upload(content: string, name = "input.jsonl", purpose = "batch"): Promise<Json> {
    const form = new FormData();
    form.set("purpose", purpose);
    form.set("file", new Blob([content]), name);
    const response = await fetch(`${env.url}/v1/files`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}` },
      body: form,
    });
    const body = (await response.json()) as Json;
    expect(response.status, JSON.stringify(body)).toBe(200);
    schemas.assertConforms("OpenAIFile", body, "uploaded file");
    return body;
  }

  /** Every batch status a response carried. */
  const statuses = new Set<string>();

  async function get(path: string, component: string): Promise<Json> {
    const response = await call(env, "GET", path, apiKey);
    expect(response.status, response.text).toBe(200);
    schemas.assertConforms(component, response.json(), `GET ${path}`);
    if (component === "Batch") statuses.add(String(response.json().status));
    return response.json();
  }

  async function createBatch(fileId: string): Promise<Json> {
    const response = await call(env, "POST", "/v1/batches", apiKey, {
      input_file_id: fileId,
      endpoint: "/v1/chat/completions",
      completion_window: "24h",
      metadata: { suite: "conformance" },
    });
    expect(response.status, response.text).toBe(200);
    schemas.assertConforms("Batch", response.json(), "created batch");
    statuses.add(String(response.json().status));
    return response.json();
  }

  /** Polls the batch, checking every state it is seen in, until `done` says stop. */
  async function until(id: string, done: (batch: Json) => boolean): Promise<Json> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const batch = await get(`/v1/batches/${id}`, "Batch");
      if (done(batch)) return batch;
      if (Date.now() > deadline) throw new Error(`batch ${id} still ${String(batch.status)}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  async function resultLines(fileId: unknown): Promise<Json[]> {
    expect(fileId).toBeTypeOf("string");
    await get(`/v1/files/${String(fileId)}`, "OpenAIFile");
    const response = await call(env, "GET", `/v1/files/${String(fileId)}/content`, apiKey);
    expect(response.status).toBe(200);
    const lines = response.text
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as Json);
    for (const line of lines)
      expect(batchLineProblems(schemas, line), JSON.stringify(line)).toEqual([]);
    return lines;
  }

  it("a completed batch: its objects, output lines with every extension and an error line", async () => {
    env.fake.setDefault({ contents: ["Likely. Probability: 80%."] });
    // One line's model call is refused for good: its line goes to the error file.
    env.fake.enqueue({
      status: 400,
      errorBody: { error: { message: "prompt too long", type: "invalid_request_error" } },
    });
    const file = await upload(
      jsonl([
        chatLine("refused"),
        chatLine("plain"),
        chatLine("binary", { answer_type: "binary" }),
        chatLine("research", { research: true, answer_type: "binary" }),
        chatLine("dated", { prediction_date: "2025-06-01", research: true, answer_type: "binary" }),
        chatLine("ensemble", { answer_type: "binary", ensemble: { samples: 2 } }),
        chatLine("reasoning", { reasoning_effort: "low" }),
      ]),
    );
    const created = await createBatch(String(file.id));
    const batch = await until(String(created.id), (b) => b.status === "completed");
    expect(batch.request_counts).toEqual({ total: 7, completed: 6, failed: 1 });
    const output = await resultLines(batch.output_file_id);
    expect(output).toHaveLength(6);
    const errors = await resultLines(batch.error_file_id);
    expect(errors.map((line) => (line.response as Json).status_code)).toEqual([400]);
  });

  it("a cancelled batch: cancelling, cancelled, and lines that never ran", async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    env.fake.reset();
    env.fake.setDefault({ gate, contents: ["Held."] });
    const file = await upload(jsonl(Array.from({ length: 40 }, (_, i) => chatLine(`held-${i}`))));
    const created = await createBatch(String(file.id));
    await until(String(created.id), (b) => b.status === "in_progress");
    const cancel = await call(env, "POST", `/v1/batches/${String(created.id)}/cancel`, apiKey);
    expect(cancel.status, cancel.text).toBe(200);
    schemas.assertConforms("Batch", cancel.json(), "cancelled batch");
    statuses.add(String(cancel.json().status));
    release();
    const batch = await until(String(created.id), (b) => b.status === "cancelled");
    const errors = await resultLines(batch.error_file_id);
    expect(errors.some((line) => (line.error as Json | null)?.code === "batch_cancelled")).toBe(
      true,
    );
  });

  it("an expired batch, its lines that never ran and output files that expire", async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    env.fake.reset();
    env.fake.setDefault({ gate, contents: ["Late."] });
    const file = await upload(jsonl(Array.from({ length: 20 }, (_, i) => chatLine(`late-${i}`))));
    const response = await call(env, "POST", "/v1/batches", apiKey, {
      input_file_id: file.id,
      endpoint: "/v1/chat/completions",
      completion_window: "24h",
      output_expires_after: { anchor: "created_at", seconds: 7200 },
    });
    expect(response.status, response.text).toBe(200);
    schemas.assertConforms("Batch", response.json(), "created batch");
    const id = String(response.json().id);
    await until(id, (b) => b.status === "in_progress");
    clock.advanceSeconds(25 * 3600);
    release();
    const batch = await until(id, (b) => b.status === "expired");
    const errors = await resultLines(batch.error_file_id);
    expect(errors.some((line) => (line.error as Json | null)?.code === "batch_expired")).toBe(true);
    const errorFile = await get(`/v1/files/${String(batch.error_file_id)}`, "OpenAIFile");
    expect(errorFile.expires_at).toBeTypeOf("number");
  });

  it("a batch whose input fails validation", async () => {
    const file = await upload(jsonl([chatLine("a"), { ...chatLine("b"), url: "/v1/embeddings" }]));
    const created = await createBatch(String(file.id));
    const batch = await until(String(created.id), (b) => b.status === "failed");
    expect((batch.errors as { data: unknown[] }).data.length).toBeGreaterThan(0);
  });

  it("lists of files and batches, and a deletion", async () => {
    const files = await get("/v1/files", "ListFilesResponse");
    expect((files.data as Json[]).length).toBeGreaterThan(3);
    await get("/v1/files?purpose=batch_output&limit=1&order=asc", "ListFilesResponse");
    const batches = await get("/v1/batches?limit=2", "ListBatchesResponse");
    expect(batches.has_more).toBe(true);
    const file = await upload(jsonl([chatLine("to-delete")]));
    const deleted = await call(env, "DELETE", `/v1/files/${String(file.id)}`, apiKey);
    expect(deleted.status).toBe(200);
    schemas.assertConforms("DeleteFileResponse", deleted.json());
  });

  it("a backtest's file, which has Sibyl's own purpose", async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>';
    const plot = await upload(svg, "calibration.svg", "evaluation");
    expect(plot.purpose).toBe("evaluation");
    await get(`/v1/files/${String(plot.id)}`, "OpenAIFile");
    const listed = await get("/v1/files", "ListFilesResponse");
    expect((listed.data as Json[]).map((file) => file.id)).toContain(plot.id);
  });

  it("empty lists", async () => {
    const { apiKey: fresh } = await env.org("1");
    for (const [path, component] of [
      ["/v1/files", "ListFilesResponse"],
      ["/v1/batches", "ListBatchesResponse"],
    ] as const) {
      const response = await call(env, "GET", path, fresh);
      expect(response.json().data).toEqual([]);
      schemas.assertConforms(component, response.json(), `empty ${path}`);
    }
  });

  it("the model list and each model", async () => {
    const list = await get("/v1/models", "ListModelsResponse");
    for (const model of list.data as Json[]) await get(`/v1/models/${String(model.id)}`, "Model");
  });

  it("saw a batch in every status, and each status Sibyl has is one of OpenAI's", async () => {
    // finalizing lasts as long as writing the result files: not always seen, so also checked alone.
    const held = BatchObjectSchema.properties.status.anyOf.map((status) => status.const);
    expect([...statuses]).toEqual(
      expect.arrayContaining(held.filter((status) => status !== "finalizing")),
    );
    const batch = (await call(env, "GET", "/v1/batches?limit=1", apiKey)).json().data as Json[];
    for (const status of held) {
      schemas.assertConforms("Batch", { ...batch[0], status }, `a batch ${status}`);
    }
  });
});
