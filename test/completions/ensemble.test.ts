import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { EnsembleResult } from "../../src/completions/ensemble/schema.js";
import { OpenApiContract } from "../support/openapi-contract.js";
import { type CompletionsEnv, MODEL, startCompletionsEnv } from "./support/env.js";
import { balanceNanos, charges, costNanos, usd } from "./support/money.js";
import { upstreamBody } from "./support/sibyl-types.js";
import { post } from "./support/sse.js";

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

interface ChatReply {
  status: number;
  body: {
    id: string;
    choices: { index: number; message: { content: string }; finish_reason: string | null }[];
    usage: { prompt_tokens: number; completion_tokens: number; cost_usd: number };
    ensemble?: EnsembleResult;
    error?: { param: string | null; code: string | null };
    detail?: { loc: (string | number)[] }[];
  };
}

async function chat(apiKey: string, body: Record<string, unknown>): Promise<ChatReply> {
  const response = await post(env.server.url, "/v1/chat/completions", apiKey, {
    model: MODEL,
    messages: [{ role: "user", content: "Will the treaty be ratified by 2026?" }],
    ...body,
  });
  const json = (await response.json()) as ChatReply["body"];
  const documented = contract.responseProblems("POST", "/v1/chat/completions", {
    status: response.status,
    contentType: response.headers.get("content-type"),
    body: json,
  });
  expect(documented).toEqual([]);
  return { status: response.status, body: json };
}

function answerTag(content: string): string | null {
  return /<answer>([^<]*)<\/answer>$/.exec(content)?.[1] ?? null;
}

const sampleAnswers = (ensemble: EnsembleResult | undefined) =>
  (ensemble?.samples ?? []).map((sample) => sample.answer);

describe("ensemble on chat completions", () => {
  it("asks once for K samples and returns one choice holding their median, the samples beside it", async () => {
    const { apiKey } = await env.org("1");
    env.fake.enqueue({
      contents: ["Unlikely. Probability: 10%", "Probability: 30%", "Quite likely: 80%"],
    });
    const reply = await chat(apiKey, { answer_type: "binary", ensemble: { samples: 3 } });

    expect(reply.status).toBe(200);
    expect(env.fake.requests).toHaveLength(1);
    expect(upstreamBody(env.fake.requests[0]?.body).n).toBe(3);
    expect(reply.body.choices).toHaveLength(1);
    const choice = reply.body.choices[0];
    expect(choice?.index).toBe(0);
    expect(choice?.finish_reason).toBe("stop");
    expect(answerTag(choice?.message.content ?? "")).toBe("0.3");
    expect(reply.body.ensemble).toMatchObject({
      aggregate: "median",
      answer_type: "binary",
      status: "aggregated",
      aggregated_answer: 0.3,
      samples_requested: 3,
      samples_answered: 3,
      samples_unanswered: 0,
    });
    expect(reply.body.ensemble?.samples).toEqual([
      {
        index: 0,
        content: "Unlikely. Probability: 10%",
        thinking: null,
        finish_reason: "stop",
        answer: 0.1,
        answer_status: "extracted",
      },
      expect.objectContaining({ index: 1, content: "Probability: 30%", answer: 0.3 }),
      expect.objectContaining({ index: 2, content: "Quite likely: 80%", answer: 0.8 }),
    ]);
  });

  it.each([
    ["mean", [0.5, 0.9], "0.7"],
    ["logit_mean", [0.5, 0.9], "0.75"],
    ["trimmed_mean", [0.1, 0.5, 0.6], "0.5"],
  ] as const)("aggregates with %s", async (aggregate, probabilities, expected) => {
    const { apiKey } = await env.org("1");
    env.fake.enqueue({ contents: probabilities.map((p) => `Probability: ${p * 100}%`) });
    const reply = await chat(apiKey, {
      answer_type: "BINARY",
      ensemble: { samples: probabilities.length, aggregate },
    });
    expect(answerTag(reply.body.choices[0]?.message.content ?? "")).toBe(expected);
    expect(reply.body.ensemble?.aggregate).toBe(aggregate);
    expect(reply.body.ensemble?.aggregated_answer).toBe(Number(expected));
  });

  it("combines multiple-choice answers option by option, renormalized", async () => {
    const { apiKey } = await env.org("1");
    env.fake.enqueue({ contents: ["A: 60%\nB: 40%", "A: 20%\nB: 80%"] });
    const reply = await chat(apiKey, {
      messages: [{ role: "user", content: "Who wins?\nA) Red\nB) Blue" }],
      answer_type: "multiple_choice",
      ensemble: { samples: 2, aggregate: "mean" },
    });
    expect(JSON.parse(answerTag(reply.body.choices[0]?.message.content ?? "") ?? "")).toEqual({
      A: 0.4,
      B: 0.6,
    });
    expect(sampleAnswers(reply.body.ensemble)).toEqual([
      { A: 0.6, B: 0.4 },
      { A: 0.2, B: 0.8 },
    ]);
  });

  it("combines continuous answers: the mean of the means, the mixture's standard deviation", async () => {
    const { apiKey } = await env.org("1");
    env.fake.enqueue({
      contents: ['{"mean": 10, "standard_deviation": 2}', '{"mean": 14, "standard_deviation": 4}'],
    });
    const reply = await chat(apiKey, {
      messages: [{ role: "user", content: "How many units will ship in May?" }],
      answer_type: "continuous",
      ensemble: { samples: 2, aggregate: "mean" },
    });
    const stated = JSON.parse(answerTag(reply.body.choices[0]?.message.content ?? "") ?? "");
    expect(stated.mean).toBe(12);
    // √((4 + 16)/2 + (4 + 4)/2) = √14
    expect(stated.standard_deviation).toBeCloseTo(Math.sqrt(14), 9);
    expect(reply.body.ensemble?.aggregated_answer).toEqual(stated);
  });

  it("bills the K samples: every sample's tokens, charged once in the ledger, as n = K would be", async () => {
    const org = await env.org("1");
    const initial = await balanceNanos(env.server.url, org.apiKey);
    const usage = { prompt_tokens: 120, completion_tokens: 3 * 40 };
    env.fake.enqueue({
      contents: ["Probability: 20%", "Probability: 40%", "Probability: 60%"],
      usage,
    });
    const reply = await chat(org.apiKey, {
      answer_type: "binary",
      ensemble: { samples: 3, aggregate: "mean" },
    });
    const expected = costNanos(120, 120);
    expect(reply.body.usage).toMatchObject({
      prompt_tokens: 120,
      completion_tokens: 120,
      cost_usd: usd(expected),
    });
    expect(await balanceNanos(env.server.url, org.apiKey)).toBe(initial - expected);
    const entries = await charges(env.server.services, org.organizationId);
    expect(entries.map((entry) => [entry.reference, entry.amount_nanos])).toEqual([
      [reply.body.id, -expected],
    ]);

    // The same three samples asked as n = 3 cost the same.
    env.fake.enqueue({
      contents: ["Probability: 20%", "Probability: 40%", "Probability: 60%"],
      usage,
    });
    const plain = await chat(org.apiKey, { answer_type: "binary", n: 3 });
    expect(plain.body.choices).toHaveLength(3);
    expect(plain.body.usage.cost_usd).toBe(reply.body.usage.cost_usd);
  });

  it("holds the worst case of all K samples before calling the model", async () => {
    // $0.02 covers one reply of up to 1,000 tokens at $0.000002 each, not sixteen.
    const { apiKey } = await env.org("0.02");
    env.fake.setDefault({ contents: ["Probability: 50%"] });
    const refused = await chat(apiKey, { answer_type: "binary", ensemble: { samples: 16 } });
    expect(refused.status).toBe(402);
    expect(env.fake.requests).toHaveLength(0);

    const small = await chat(apiKey, { answer_type: "binary", ensemble: { samples: 2 } });
    expect(small.status).toBe(200);
    expect(env.fake.requests).toHaveLength(1);
  });

  it("leaves a sample whose answer cannot be read out of the aggregate, and counts it", async () => {
    const { apiKey } = await env.org("1");
    env.fake.enqueue(
      {
        contents: ["Probability: 20%", "It is murky.", "Probability: 60%"],
        usage: { prompt_tokens: 100, completion_tokens: 30 },
      },
      // The repair call for the unreadable sample finds no answer either.
      { contents: ["Still murky."], usage: { prompt_tokens: 150, completion_tokens: 4 } },
    );
    const reply = await chat(apiKey, {
      answer_type: "binary",
      ensemble: { samples: 3, aggregate: "mean" },
    });
    expect(answerTag(reply.body.choices[0]?.message.content ?? "")).toBe("0.4");
    expect(reply.body.ensemble).toMatchObject({ samples_answered: 2, samples_unanswered: 1 });
    expect(reply.body.ensemble?.samples[1]).toMatchObject({
      content: "It is murky.",
      answer: null,
      answer_status: "failed",
    });
    // The repair is paid work too.
    expect(reply.body.usage).toMatchObject({ prompt_tokens: 250, completion_tokens: 34 });
    expect(reply.body.usage.cost_usd).toBe(usd(costNanos(250, 34)));
  });

  it("returns no answer tag, and says why, when no sample's answer can be read", async () => {
    const { apiKey } = await env.org("1");
    env.fake.setDefault({ contents: ["No idea."] });
    const reply = await chat(apiKey, { answer_type: "binary", ensemble: { samples: 2 } });
    expect(reply.status).toBe(200);
    const content = reply.body.choices[0]?.message.content ?? "";
    expect(content).not.toContain("<answer>");
    expect(content).toContain("None of the 2 samples gave a readable answer");
    expect(reply.body.ensemble).toMatchObject({
      status: "no_answers",
      aggregated_answer: null,
      samples_answered: 0,
      samples_unanswered: 2,
    });
  });
});

describe("ensemble requests the service cannot serve", () => {
  it.each([
    ["without an answer_type", {}, "answer_type", "ensemble_answer_type_required"],
    [
      "with free-response answers",
      { answer_type: "free_response" },
      "answer_type",
      "ensemble_answer_type_unsupported",
    ],
    ["with n above 1", { answer_type: "binary", n: 2 }, "n", "ensemble_with_n"],
    ["streamed", { answer_type: "binary", stream: true }, "stream", "ensemble_stream_unsupported"],
  ])("refuses an ensemble %s with a 400 naming the field", async (_, extra, param, code) => {
    const org = await env.org("1");
    const response = await post(env.server.url, "/v1/chat/completions", org.apiKey, {
      model: MODEL,
      messages: [{ role: "user", content: "Will it rain?" }],
      ensemble: { samples: 3 },
      ...extra,
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as ChatReply["body"];
    expect(body.error).toMatchObject({ param, code });
    expect(env.fake.requests).toHaveLength(0);
    expect(await balanceNanos(env.server.url, org.apiKey)).toBe(1e9);
  });

  it.each([
    ["one sample", { samples: 1 }, ["body", "ensemble", "samples"]],
    ["seventeen samples", { samples: 17 }, ["body", "ensemble", "samples"]],
    ["no sample count", { aggregate: "mean" }, ["body", "ensemble", "samples"]],
    ["an unknown aggregate", { samples: 3, aggregate: "mode" }, ["body", "ensemble", "aggregate"]],
  ])("refuses %s with a 422 locating the field", async (_, ensemble, loc) => {
    const { apiKey } = await env.org("1");
    const reply = await chat(apiKey, { answer_type: "binary", ensemble });
    expect(reply.status).toBe(422);
    expect(reply.body.detail?.map((problem) => problem.loc)).toContainEqual(loc);
    expect(env.fake.requests).toHaveLength(0);
  });

  it("refuses an auto question classified as free text, and charges nothing", async () => {
    const org = await env.org("1");
    const response = await post(env.server.url, "/v1/chat/completions", org.apiKey, {
      model: MODEL,
      messages: [{ role: "user", content: "Why did the Western Roman Empire fall?" }],
      answer_type: "auto",
      ensemble: { samples: 3 },
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as ChatReply["body"]).error).toMatchObject({
      param: "answer_type",
      code: "ensemble_answer_type_unsupported",
    });
    expect(env.fake.requests).toHaveLength(0);
    expect(await balanceNanos(env.server.url, org.apiKey)).toBe(1e9);
    expect(await charges(env.server.services, org.organizationId)).toEqual([]);
  });

  it("is a chat field: text completions refuse it", async () => {
    const { apiKey } = await env.org("1");
    const response = await post(env.server.url, "/v1/completions", apiKey, {
      model: MODEL,
      prompt: "Will it rain?",
      answer_type: "binary",
      ensemble: { samples: 3 },
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as ChatReply["body"]).error?.param).toBe("ensemble");
    expect(env.fake.requests).toHaveLength(0);
  });
});

describe("ensemble on the Responses API", () => {
  it("rides along: the output text ends with the aggregate's answer tag", async () => {
    const { apiKey } = await env.org("1");
    env.fake.enqueue({ contents: ["Probability: 10%", "Probability: 50%"] });
    const response = await post(env.server.url, "/v1/responses", apiKey, {
      model: MODEL,
      input: "Will the treaty be ratified by 2026?",
      answer_type: "binary",
      ensemble: { samples: 2, aggregate: "mean" },
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      output: { type: string; content?: { text: string }[] }[];
    };
    const message = body.output.find((item) => item.type === "message");
    expect(answerTag(message?.content?.[0]?.text ?? "")).toBe("0.3");
    expect(upstreamBody(env.fake.requests[0]?.body).n).toBe(2);
  });
});

describe("/openapi.json", () => {
  it("documents the ensemble request field and the ensemble in the reply", () => {
    const request = contract.deref(contract.component("ChatCompletionRequest")) as {
      properties: Record<string, unknown>;
    };
    const field = JSON.stringify(request.properties.ensemble);
    expect(field).toContain('"maximum":16');
    for (const aggregate of ["median", "mean", "logit_mean", "trimmed_mean"]) {
      expect(field).toContain(`"${aggregate}"`);
    }
    expect(field).toContain("answer tag holds the aggregate");
    const reply = contract.deref(contract.component("ChatCompletionResponse")) as {
      properties: Record<string, { properties?: Record<string, unknown> }>;
    };
    expect(Object.keys(reply.properties.ensemble?.properties ?? {})).toEqual(
      expect.arrayContaining(["aggregated_answer", "samples", "samples_unanswered", "status"]),
    );
    const responses = contract.component("ResponseCreateRequest") as {
      properties: Record<string, unknown>;
    };
    expect(responses.properties.ensemble).toEqual(request.properties.ensemble);
  });
});
