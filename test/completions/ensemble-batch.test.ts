import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EnsembleResult } from "../../src/completions/ensemble/schema.js";
import {
  type BatchServer,
  batchRequest,
  chatLine,
  jsonl,
  readResults,
  startBatchServer,
  uploadBatchFile,
  waitForBatch,
} from "../batches/support/batch-server.js";
import { pricedModel } from "../batches/support/priced-model.js";
import { type FakeUpstream, startFakeUpstream } from "../support/fake-upstream.js";
import { charges, costNanos } from "./support/money.js";

describe("ensemble on a batch line", () => {
  let upstream: FakeUpstream;
  let server: BatchServer;
  beforeAll(async () => {
    upstream = await startFakeUpstream();
    server = await startBatchServer({
      config: {
        models: [pricedModel(upstream.url)],
        batches: { price_multiplier: 0.5, concurrency: 2 },
      },
    });
  });
  afterAll(async () => {
    await server.close();
    await upstream.close();
  });

  it("returns the aggregate and the samples in the line's result, billed as its K calls", async () => {
    const usage = { prompt_tokens: 200, completion_tokens: 30 };
    upstream.enqueue(
      { contents: ["Probability: 10%"], usage },
      { contents: ["Probability: 20%"], usage },
      { contents: ["Probability: 60%"], usage },
    );
    const { openai, org } = await server.client("1");
    const file = await uploadBatchFile(
      openai,
      jsonl([
        chatLine("ensemble", "priced", {
          answer_type: "binary",
          ensemble: { samples: 3, aggregate: "mean" },
        }),
        chatLine("ensemble-with-n", "priced", {
          answer_type: "binary",
          n: 2,
          ensemble: { samples: 3 },
        }),
      ]),
    );
    const batch = await waitForBatch(
      openai,
      (await openai.batches.create(batchRequest(file.id))).id,
    );
    expect(batch.status).toBe("completed");
    expect(batch.request_counts).toMatchObject({ total: 2, completed: 1, failed: 1 });
    expect(upstream.requests).toHaveLength(3);
    for (const request of upstream.requests) expect(request.body).toMatchObject({ n: 1 });

    const [line] = await readResults(openai, batch.output_file_id);
    const body = line?.response?.body as {
      choices: { message: { content: string } }[];
      usage: { prompt_tokens: number; completion_tokens: number; cost_usd: number };
      ensemble: EnsembleResult;
    };
    expect(body.choices).toHaveLength(1);
    expect(body.choices[0]?.message.content.endsWith("<answer>0.3</answer>")).toBe(true);
    const answers = body.ensemble.samples.map((sample) => Number(sample.answer));
    expect(answers.sort((a, b) => a - b)).toEqual([0.1, 0.2, 0.6]);
    expect(body.ensemble.aggregated_answer).toBe(0.3);

    const expected = Math.ceil(costNanos(600, 90) * 0.5);
    expect(body.usage).toMatchObject({
      prompt_tokens: 600,
      completion_tokens: 90,
      cost_usd: expected / 1e9,
    });
    const entries = await charges(server.services, org.organizationId);
    expect(entries.map((entry) => entry.amount_nanos)).toEqual([-expected]);

    const [failure] = await readResults(openai, batch.error_file_id);
    expect(failure?.custom_id).toBe("ensemble-with-n");
    expect(failure?.response?.status_code).toBe(400);
    expect(JSON.stringify(failure?.response?.body)).toContain("ensemble_with_n");
  });
});
