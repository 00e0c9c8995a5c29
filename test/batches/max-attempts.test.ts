import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeUpstream, startFakeUpstream } from "../support/fake-upstream.js";
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

describe("batches.max_attempts", () => {
  let upstream: FakeUpstream;
  let server: BatchServer;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.setDefault({ status: 503, errorBody: { error: { message: "overloaded" } } });
    server = await startBatchServer({
      worker: { retryBaseMs: 10 },
      config: {
        batches: { max_attempts: 2 },
        models: [
          {
            id: "unavailable",
            provider: "openai",
            base_url: upstream.url,
            context_length: 8192,
            retry_attempts: 1,
          },
        ],
      },
    });
  });

  afterAll(async () => {
    await server?.close();
    await upstream?.close();
  });

  it("runs a line the model keeps refusing with 503 that many times, then records the refusal", async () => {
    const { openai } = await server.client();
    const file = await uploadBatchFile(openai, jsonl([chatLine("overloaded", "unavailable")]));
    const batch = await waitForBatch(
      openai,
      (await openai.batches.create(batchRequest(file.id))).id,
    );

    expect(batch.request_counts).toEqual({ total: 1, completed: 0, failed: 1 });
    expect(upstream.requests.length).toBe(2);
    const [line] = await readResults(openai, batch.error_file_id);
    expect(line?.custom_id).toBe("overloaded");
    expect(line?.response?.status_code).toBeGreaterThanOrEqual(500);
  });
});
