import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { EnsembleResult, EnsembleSample } from "../../src/completions/ensemble/schema.js";
import type { FakeBehaviour, FakeUsage } from "../support/fake-upstream.js";
import { OpenApiContract } from "../support/openapi-contract.js";
import { eventually } from "../support/polling.js";
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

/** Sample answers in ascending order: which call answers first is up to the network. */
const sampleAnswers = (ensemble: EnsembleResult | undefined) =>
  (ensemble?.samples ?? []).map((sample) => sample.answer).sort(byValue);

const byValue = (a: unknown, b: unknown) => JSON.stringify(a).localeCompare(JSON.stringify(b));

/**
 * A reply from a model server that ignores `n` (as Ollama, llama.cpp and many hosted APIs do):
 * one choice, whatever was asked, with the usage given or none.
 */
function oneChoice(content: string, usage: FakeUsage | null = null): FakeBehaviour {
  const body = {
    id: "chatcmpl-fake",
    object: "chat.completion",
    created: 0,
    model: "fake-model",
    choices: [
      { index: 0, message: { role: "assistant", content }, logprobs: null, finish_reason: "stop" },
    ],
    ...(usage
      ? { usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } }
      : {}),
  };
  return { raw: { contentType: "application/json", chunks: [JSON.stringify(body)] } };
}

const samplesByIndex = (ensemble: EnsembleResult | undefined): EnsembleSample[] =>
  [...(ensemble?.samples ?? [])].sort((a, b) => a.index - b.index);

describe("ensemble on chat completions", () => {
  it("asks for each sample in a call of its own, so a server that ignores n still gives K samples", async () => {
    const { apiKey } = await env.org("1");
    env.fake.enqueue(
      oneChoice("Unlikely. Probability: 10%"),
      oneChoice("Probability: 30%"),
      oneChoice("Quite likely: 80%"),
    );
    const reply = await chat(apiKey, { answer_type: "binary", ensemble: { samples: 3 } });

    expect(reply.status).toBe(200);
    expect(env.fake.requests).toHaveLength(3);
    for (const request of env.fake.requests) {
      const sent = upstreamBody(request.body);
      expect(sent.n).toBe(1);
      expect(sent.seed).toBeUndefined();
      expect(sent.messages?.at(-1)).toEqual({
        role: "user",
        content: "Will the treaty be ratified by 2026?",
      });
    }
    expect(reply.body.choices).toHaveLength(1);
    const choice = reply.body.choices[0];
    expect(choice?.index).toBe(0);
    expect(choice?.finish_reason).toBe("stop");
    expect(choice?.message.content).toBe(
      "Median of 3 answers from 3 samples.\n\n<answer>0.3</answer>",
    );
    expect(reply.body.ensemble).toMatchObject({
      aggregate: "median",
      answer_type: "binary",
      status: "aggregated",
      aggregated_answer: 0.3,
      samples_requested: 3,
      samples_answered: 3,
      samples_unanswered: 0,
      samples_failed: 0,
    });
    const samples = samplesByIndex(reply.body.ensemble);
    expect(samples.map((sample) => sample.index)).toEqual([0, 1, 2]);
    expect([...samples].sort((a, b) => byValue(a.answer, b.answer))).toEqual([
      {
        index: expect.any(Number),
        content: "Unlikely. Probability: 10%",
        thinking: null,
        finish_reason: "stop",
        answer: 0.1,
        answer_status: "extracted",
      },
      expect.objectContaining({ content: "Probability: 30%", answer: 0.3 }),
      expect.objectContaining({ content: "Quite likely: 80%", answer: 0.8 }),
    ]);
  });

  it("gives each sample a seed of its own when the request sets one", async () => {
    const { apiKey } = await env.org("1");
    env.fake.setDefault({ contents: ["Probability: 40%"] });
    const reply = await chat(apiKey, {
      answer_type: "binary",
      seed: 7,
      ensemble: { samples: 3 },
    });
    expect(reply.status).toBe(200);
    const seeds = env.fake.requests.map((request) => upstreamBody(request.body).seed);
    expect([...seeds].sort()).toEqual([7, 8, 9]);
  });

  it.each([
    ["mean", [0.5, 0.9], "0.7"],
    ["logit_mean", [0.5, 0.9], "0.75"],
    ["trimmed_mean", [0.1, 0.5, 0.6], "0.5"],
  ] as const)("aggregates with %s", async (aggregate, probabilities, expected) => {
    const { apiKey } = await env.org("1");
    env.fake.enqueue(...probabilities.map((p) => oneChoice(`Probability: ${p * 100}%`)));
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
    env.fake.enqueue(oneChoice("A: 60%\nB: 40%"), oneChoice("A: 20%\nB: 80%"));
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
      { A: 0.2, B: 0.8 },
      { A: 0.6, B: 0.4 },
    ]);
  });

  it("combines continuous answers: the mean of the means, the mixture's standard deviation", async () => {
    const { apiKey } = await env.org("1");
    env.fake.enqueue(
      oneChoice('{"mean": 10, "standard_deviation": 2}'),
      oneChoice('{"mean": 14, "standard_deviation": 4}'),
    );
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
});

describe("ensemble billing", () => {
  const replies = ["Probability: 20%", "Probability: 40%", "Probability: 60%"];

  /** The cost of asking each reply as a chat completion of its own. */
  async function singleCalls(usage: FakeUsage | null) {
    const org = await env.org("1");
    let nanos = 0;
    let promptTokens = 0;
    let completionTokens = 0;
    for (const content of replies) {
      env.fake.enqueue(oneChoice(content, usage));
      const single = await chat(org.apiKey, { answer_type: "binary" });
      expect(single.status).toBe(200);
      nanos += Math.round(single.body.usage.cost_usd * 1e9);
      promptTokens += single.body.usage.prompt_tokens;
      completionTokens += single.body.usage.completion_tokens;
    }
    expect(await balanceNanos(env.server.url, org.apiKey)).toBe(1e9 - nanos);
    return { nanos, promptTokens, completionTokens };
  }

  it.each([
    ["reported by the model server", { prompt_tokens: 100, completion_tokens: 40 }],
    ["counted when the model server reports none", null],
  ] as const)("bills K calls exactly as K single calls, with the tokens %s", async (_, usage) => {
    const single = await singleCalls(usage);
    if (usage) expect(single).toMatchObject({ promptTokens: 300, completionTokens: 120 });
    expect(single.nanos).toBe(costNanos(single.promptTokens, single.completionTokens));

    const org = await env.org("1");
    env.fake.enqueue(...replies.map((content) => oneChoice(content, usage)));
    const reply = await chat(org.apiKey, {
      answer_type: "binary",
      ensemble: { samples: 3, aggregate: "mean" },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.ensemble?.aggregated_answer).toBe(0.4);
    expect(reply.body.usage).toMatchObject({
      prompt_tokens: single.promptTokens,
      completion_tokens: single.completionTokens,
      cost_usd: usd(single.nanos),
    });
    expect(await balanceNanos(env.server.url, org.apiKey)).toBe(1e9 - single.nanos);
    const entries = await charges(env.server.services, org.organizationId);
    expect(entries.map((entry) => [entry.reference, entry.amount_nanos])).toEqual([
      [reply.body.id, -single.nanos],
    ]);
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
    expect(env.fake.requests).toHaveLength(2);
  });

  it("leaves a sample whose answer cannot be read out of the aggregate, and counts it", async () => {
    const { apiKey } = await env.org("1");
    env.fake.enqueue(
      oneChoice("Probability: 20%", { prompt_tokens: 100, completion_tokens: 10 }),
      oneChoice("It is murky.", { prompt_tokens: 100, completion_tokens: 10 }),
      oneChoice("Probability: 60%", { prompt_tokens: 100, completion_tokens: 10 }),
    );
    // The repair call for the unreadable sample finds no answer either.
    env.fake.setDefault(oneChoice("Still murky.", { prompt_tokens: 150, completion_tokens: 4 }));
    const reply = await chat(apiKey, {
      answer_type: "binary",
      ensemble: { samples: 3, aggregate: "mean" },
    });
    expect(reply.body.choices[0]?.message.content).toBe(
      "Mean of 2 answers from 3 samples (1 without a readable answer).\n\n<answer>0.4</answer>",
    );
    expect(reply.body.ensemble).toMatchObject({
      samples_answered: 2,
      samples_unanswered: 1,
      samples_failed: 0,
    });
    expect(reply.body.ensemble?.samples.find((s) => s.answer === null)).toMatchObject({
      content: "It is murky.",
      answer_status: "failed",
    });
    expect(env.fake.requests).toHaveLength(4);
    // The repair is paid work too.
    expect(reply.body.usage).toMatchObject({ prompt_tokens: 450, completion_tokens: 34 });
    expect(reply.body.usage.cost_usd).toBe(usd(costNanos(450, 34)));
  });

  it("returns no answer tag, and says why, when no sample's answer can be read", async () => {
    const { apiKey } = await env.org("1");
    env.fake.setDefault(oneChoice("No idea."));
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

describe("ensemble calls that fail", () => {
  const engineCrashed = { status: 500, errorBody: { error: { message: "engine crashed" } } };

  it("aggregates the samples that answered, counts the failed call and bills only the answered ones", async () => {
    const org = await env.org("1");
    const usage = { prompt_tokens: 100, completion_tokens: 40 };
    env.fake.enqueue(oneChoice("Probability: 20%", usage), oneChoice("Probability: 60%", usage));
    // The third call fails, and so does its retry.
    env.fake.setDefault(engineCrashed);
    const reply = await chat(org.apiKey, {
      answer_type: "binary",
      ensemble: { samples: 3, aggregate: "mean" },
    });

    expect(reply.status).toBe(200);
    expect(env.fake.requests).toHaveLength(4);
    expect(reply.body.choices[0]?.message.content).toBe(
      "Mean of 2 answers from 3 samples (1 with no reply from the model).\n\n<answer>0.4</answer>",
    );
    expect(reply.body.ensemble).toMatchObject({
      status: "aggregated",
      aggregated_answer: 0.4,
      samples_requested: 3,
      samples_answered: 2,
      samples_unanswered: 1,
      samples_failed: 1,
    });
    expect(sampleAnswers(reply.body.ensemble)).toEqual([0.2, 0.6]);

    const expected = costNanos(200, 80);
    expect(reply.body.usage).toMatchObject({
      prompt_tokens: 200,
      completion_tokens: 80,
      cost_usd: usd(expected),
    });
    expect(await balanceNanos(env.server.url, org.apiKey)).toBe(1e9 - expected);
    const entries = await charges(env.server.services, org.organizationId);
    expect(entries.map((entry) => entry.amount_nanos)).toEqual([-expected]);
    expect(await env.server.services.ledger.held(org.organizationId)).toEqual([]);
  });

  it("fails as a single call would when every call fails, charges nothing and releases the hold", async () => {
    const org = await env.org("1");
    env.fake.setDefault(engineCrashed);
    const single = await chat(org.apiKey, { answer_type: "binary" });
    expect(single.status).toBe(502);

    env.fake.reset();
    env.fake.setDefault(engineCrashed);
    const reply = await chat(org.apiKey, { answer_type: "binary", ensemble: { samples: 3 } });
    expect(reply.status).toBe(502);
    expect(reply.body.error).toEqual(single.body.error);
    expect(JSON.stringify(reply.body.error)).toContain("engine crashed");
    // Every sample's call, and its retry.
    expect(env.fake.requests).toHaveLength(6);
    expect(await balanceNanos(env.server.url, org.apiKey)).toBe(1e9);
    expect(await charges(env.server.services, org.organizationId)).toEqual([]);
    expect(await env.server.services.ledger.held(org.organizationId)).toEqual([]);
  });
});

describe("an ensemble whose client leaves", () => {
  /** Starts a request whose upstream calls stall, and waits until `calls` of them arrived. */
  async function stalled(apiKey: string, body: Record<string, unknown>, calls: number) {
    env.fake.setDefault({ headersDelayMs: 1_500, contents: ["Probability: 50%"] });
    const controller = new AbortController();
    const pending = post(
      env.server.url,
      "/v1/chat/completions",
      apiKey,
      {
        model: MODEL,
        messages: [{ role: "user", content: "Will the treaty be ratified by 2026?" }],
        answer_type: "binary",
        ...body,
      },
      { signal: controller.signal },
    ).catch((error: unknown) => error);
    await eventually(async () => (env.fake.requests.length === calls ? true : undefined));
    return {
      leave: async () => {
        controller.abort();
        await pending;
      },
    };
  }

  it("holds K single calls' worst case, then stops every call and charges nothing", async () => {
    const org = await env.org("1");
    const { ledger } = env.server.services;

    const single = await stalled(org.apiKey, {}, 1);
    const [singleHold] = await ledger.held(org.organizationId);
    await single.leave();
    await eventually(async () =>
      (await ledger.held(org.organizationId)).length === 0 ? true : undefined,
    );
    env.fake.reset();

    const ensemble = await stalled(org.apiKey, { ensemble: { samples: 3 } }, 3);
    const [ensembleHold] = await ledger.held(org.organizationId);
    // Each sample holds its prompt, its reply and its repair, as a single call does.
    expect(ensembleHold?.amountNanos).toBe(3 * (singleHold?.amountNanos ?? 0));
    await ensemble.leave();

    const outcomes = await Promise.all(env.fake.requests.map((request) => request.settled));
    expect(outcomes).toEqual(["aborted", "aborted", "aborted"]);
    await eventually(async () =>
      (await ledger.held(org.organizationId)).length === 0 ? true : undefined,
    );
    expect(await balanceNanos(env.server.url, org.apiKey)).toBe(1e9);
    expect(await charges(env.server.services, org.organizationId)).toEqual([]);
    expect(env.fake.requests).toHaveLength(3);
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
