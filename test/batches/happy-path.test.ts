import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type BatchServer,
  chatLine,
  jsonl,
  readResults,
  startBatchServer,
  uploadBatchFile,
  waitForBatch,
} from "./support/batch-server.js";

describe("batches: upload, create, poll, download", () => {
  let server: BatchServer;
  beforeAll(async () => {
    server = await startBatchServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it("runs every line through the completion service and writes an output file", async () => {
    const { openai } = await server.client();
    const lines = Array.from({ length: 20 }, (_, i) => chatLine(`q-${i}`));
    const file = await uploadBatchFile(openai, jsonl(lines));
    expect(file).toMatchObject({ object: "file", purpose: "batch", status: "processed" });

    const created = await openai.batches.create({
      input_file_id: file.id,
      endpoint: "/v1/chat/completions",
      completion_window: "24h",
      metadata: { project: "smoke" },
    });
    expect(created.id).toMatch(/^batch_/);
    expect(created.status).toBe("validating");

    const batch = await waitForBatch(openai, created.id);
    expect(batch.status).toBe("completed");
    expect(batch.request_counts).toEqual({ total: 20, completed: 20, failed: 0 });
    expect(batch.model).toBe("sibyl-baseline");
    expect(batch.metadata).toEqual({ project: "smoke" });
    for (const stamp of ["in_progress_at", "finalizing_at", "completed_at"] as const) {
      expect(batch[stamp]).toBeTypeOf("number");
    }
    expect(batch.failed_at).toBeNull();
    expect(batch.cancelled_at).toBeNull();
    expect(batch.error_file_id).toBeNull();

    const results = await readResults(openai, batch.output_file_id);
    expect(results.map((r) => r.custom_id).sort()).toEqual(lines.map((l) => l.custom_id).sort());
    for (const result of results) {
      expect(result.id).toMatch(/^batch_req_/);
      expect(result.error).toBeNull();
      expect(result.response?.status_code).toBe(200);
      expect(result.response?.body).toMatchObject({
        object: "chat.completion",
        model: "sibyl-baseline",
      });
    }
    const output = await openai.files.retrieve(batch.output_file_id as string);
    expect(output.purpose).toBe("batch_output");
  });
});
