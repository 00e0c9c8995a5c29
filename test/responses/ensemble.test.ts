import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { EnsembleResult } from "../../src/completions/ensemble/schema.js";
import { type CompletionsEnv, MODEL, startCompletionsEnv } from "../completions/support/env.js";
import { balanceNanos, costNanos, usd } from "../completions/support/money.js";
import { upstreamBody } from "../completions/support/sibyl-types.js";
import { post } from "../completions/support/sse.js";
import { OpenApiContract } from "../support/openapi-contract.js";

let env: CompletionsEnv;
let contract: OpenApiContract;

beforeAll(async () => {
  env = await startCompletionsEnv();
  contract = await OpenApiContract.fetch(env.server.url);
});
afterEach(() => env.fake.reset());
afterAll(async () => {
  await env.close();
});

interface ResponseBody {
  status: string;
  output: { type: string; content?: { text: string }[] }[];
  usage: { input_tokens: number; output_tokens: number; cost_usd: number };
  ensemble?: EnsembleResult;
}

async function create(apiKey: string, body: Record<string, unknown>) {
  const response = await post(env.server.url, "/v1/responses", apiKey, {
    model: MODEL,
    input: "Will the treaty be ratified by 2026?",
    answer_type: "binary",
    ...body,
  });
  const json = (await response.json()) as ResponseBody;
  const documented = contract.responseProblems("POST", "/v1/responses", {
    status: response.status,
    contentType: response.headers.get("content-type"),
    body: json,
  });
  expect(documented).toEqual([]);
  return { status: response.status, body: json };
}

describe("ensemble on the Responses API", () => {
  it("returns the aggregate in the output text and the samples in the response's ensemble", async () => {
    const org = await env.org("1");
    const usage = { prompt_tokens: 80, completion_tokens: 20 };
    env.fake.enqueue(
      { contents: ["Probability: 10%"], usage },
      { contents: ["Probability: 50%"], usage },
    );
    const reply = await create(org.apiKey, { ensemble: { samples: 2, aggregate: "mean" } });

    expect(reply.status).toBe(200);
    expect(reply.body.status).toBe("completed");
    const message = reply.body.output.find((item) => item.type === "message");
    expect(message?.content?.[0]?.text).toBe(
      "Mean of 2 answers from 2 samples.\n\n<answer>0.3</answer>",
    );
    expect(env.fake.requests).toHaveLength(2);
    for (const request of env.fake.requests) expect(upstreamBody(request.body).n).toBe(1);

    expect(reply.body.ensemble).toMatchObject({
      aggregate: "mean",
      answer_type: "binary",
      status: "aggregated",
      aggregated_answer: 0.3,
      samples_requested: 2,
      samples_answered: 2,
      samples_unanswered: 0,
      samples_failed: 0,
    });
    const samples = [...(reply.body.ensemble?.samples ?? [])].sort(
      (a, b) => Number(a.answer) - Number(b.answer),
    );
    expect(samples).toEqual([
      {
        index: expect.any(Number),
        content: "Probability: 10%",
        thinking: null,
        finish_reason: "stop",
        answer: 0.1,
        answer_status: "extracted",
      },
      expect.objectContaining({ content: "Probability: 50%", answer: 0.5 }),
    ]);

    const expected = costNanos(160, 40);
    expect(reply.body.usage).toMatchObject({
      input_tokens: 160,
      output_tokens: 40,
      cost_usd: usd(expected),
    });
    expect(await balanceNanos(env.server.url, org.apiKey)).toBe(1e9 - expected);
  });

  it("carries no ensemble when the request asked for none", async () => {
    const { apiKey } = await env.org("1");
    env.fake.enqueue({ contents: ["Probability: 40%"] });
    const reply = await create(apiKey, {});
    expect(reply.status).toBe(200);
    expect(reply.body).not.toHaveProperty("ensemble");
  });

  it("documents the ensemble in the response object", () => {
    const schema = contract.deref(contract.component("ResponseObject")) as {
      properties: Record<string, { properties?: Record<string, unknown> }>;
      required?: string[];
    };
    expect(Object.keys(schema.properties.ensemble?.properties ?? {})).toEqual(
      expect.arrayContaining(["aggregated_answer", "samples", "samples_failed", "status"]),
    );
    expect(schema.required ?? []).not.toContain("ensemble");
  });
});
