import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBatchWorker } from "../../src/cli/worker.js";
import { usdToNanos } from "../../src/util/money.js";
import {
  batchRequest,
  jsonl,
  readResults,
  uploadBatchFile,
  waitForBatch,
} from "../batches/support/batch-server.js";
import { silentLog } from "../support/silent-log.js";
import { MODEL, type ResearchEnv, startResearchEnv } from "./support/env.js";
import { givenUrls, reportOf } from "./support/report.js";
import { result } from "./support/scripted-provider.js";

describe("research in a batch line", () => {
  let env: ResearchEnv;
  let worker: { stop(): Promise<void> };

  beforeAll(async () => {
    env = await startResearchEnv({
      research: {
        sources: {
          news_search: { provider: "scripted-news", cost_usd: "0.01" },
          web_search: { provider: "scripted-web", cost_usd: "0.02" },
        },
      },
    });
    worker = createBatchWorker(env.services, silentLog, { pollMs: 20 });
  });
  afterAll(async () => {
    await worker?.stop();
    await env?.close();
  });

  it("runs the same research as a single request, at the batch price, cited in the result", async () => {
    env.news.script = {
      results: [
        result({
          url: "https://archive.example/dam",
          title: "Dam project approved",
          publishedAt: new Date("2024-02-01T00:00:00Z"),
          snippet: "The regional council approved the dam. MARKER-BATCH-CLEAN",
        }),
        result({
          url: "https://archive.example/dam-opened",
          title: "Dam opens",
          publishedAt: new Date("2024-02-02T00:00:00Z"),
          snippet: "The dam opened on June 3, 2024. MARKER-BATCH-LATER",
        }),
      ],
    };
    const org = await env.org("10");
    const openai = new OpenAI({ apiKey: org.apiKey, baseURL: `${env.url}/v1`, maxRetries: 0 });
    const body = (content: string, extra: object) => ({
      model: MODEL,
      messages: [{ role: "user", content }],
      ...extra,
    });
    const file = await uploadBatchFile(
      openai,
      jsonl([
        {
          custom_id: "as-of",
          method: "POST",
          url: "/v1/chat/completions",
          body: body("Will the dam open by June?", {
            research: true,
            prediction_date: "2024-03-01",
          }),
        },
        {
          custom_id: "web-as-of",
          method: "POST",
          url: "/v1/chat/completions",
          body: body("Will the dam open by July?", {
            research: { sources: ["web_search"] },
            prediction_date: "2024-03-01",
          }),
        },
      ]),
    );
    const batch = await waitForBatch(
      openai,
      (await openai.batches.create(batchRequest(file.id))).id,
    );
    expect(batch.status).toBe("completed");

    const [line] = await readResults(openai, batch.output_file_id);
    const response = line?.response?.body as unknown as OpenAI.ChatCompletion & {
      usage: { research_cost_usd: number; inference_cost_usd: number; cost_usd: number };
    };
    expect(line?.custom_id).toBe("as-of");
    expect(givenUrls(response)).toEqual(["https://archive.example/dam"]);
    expect(reportOf(response).as_of).not.toBeNull();
    expect(response.usage.research_cost_usd).toBe(0.005);
    const prompt = JSON.stringify(env.fake.requests[0]?.body);
    expect(prompt).toContain("MARKER-BATCH-CLEAN");
    expect(prompt).not.toContain("MARKER-BATCH-LATER");

    const [refused] = await readResults(openai, batch.error_file_id);
    expect(refused?.custom_id).toBe("web-as-of");
    expect(refused?.response?.status_code).toBe(400);
    expect(JSON.stringify(refused?.response?.body)).toContain("research_cutoff_unsupported");
    expect(env.web.calls).toHaveLength(0);

    const entries = await env.services.ledger.entries(org.organizationId);
    const charges = entries.filter((entry) => entry.kind === "charge");
    expect(charges.map((entry) => [entry.memo, Number(entry.amount_nanos)])).toEqual([
      ["research:news_search", -usdToNanos("0.005")],
      [MODEL, -usdToNanos(String(response.usage.inference_cost_usd))],
    ]);
  });
});
