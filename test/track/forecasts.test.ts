import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CompletionsEnv, MODEL, startCompletionsEnv } from "../completions/support/env.js";
import { expectErrorResponse } from "../support/http.js";
import type { TestOrg } from "../support/server.js";
import { DATABASES, suiteDatabase } from "./support/databases.js";
import { call, getQuestion, ok, questionPath } from "./support/track-api.js";

const QUESTION = "Will the Fed cut rates at its next meeting?";

describe.each(DATABASES)("recorded forecasts on %s", (databaseName) => {
  const databaseUrl = suiteDatabase(databaseName);
  let env: CompletionsEnv;
  let org: TestOrg;

  beforeAll(async () => {
    const url = databaseUrl();
    env = await startCompletionsEnv(url ? { databaseUrl: url } : {});
    org = await env.org("10");
  });
  afterAll(async () => {
    await env?.close();
  });

  const chat = (body: Record<string, unknown>, apiKey = org.apiKey) =>
    call(env.server.url, apiKey, "POST", "/v1/chat/completions", {
      model: MODEL,
      messages: [{ role: "user", content: QUESTION }],
      ...body,
    });

  it("records a chat completion's forecast with everything that made it", async () => {
    env.fake.enqueue({ contents: ["Weighing it all, Probability: 70%"] });
    const response = await ok(
      chat({ answer_type: "binary", question_id: "fed-cut", prediction_date: "2025-03-01" }),
    );
    const body = response.body as { usage: { cost_usd: number } };
    const question = await getQuestion(env.server.url, org.apiKey, "fed-cut");
    expect(question).toMatchObject({
      id: "fed-cut",
      object: "question",
      text: QUESTION,
      answer_type: "binary",
      status: "open",
      outcome: null,
      tags: [],
      resolutions: [],
      forecasts_truncated: false,
    });
    expect(question.forecasts).toHaveLength(1);
    expect(question.forecasts[0]).toMatchObject({
      object: "forecast",
      question_id: "fed-cut",
      model: MODEL,
      api_key_id: org.apiKeyId,
      answer_type: "binary",
      answer: 0.7,
      prediction_date: Date.UTC(2025, 2, 1) / 1000,
      request_id: response.headers.get("x-request-id"),
      cost_usd: body.usage.cost_usd,
      scores: null,
    });
    expect(body.usage.cost_usd).toBeGreaterThan(0);
  });

  it("records streamed, text and Responses API forecasts, and the as-of time is now without a prediction date", async () => {
    const before = Math.floor(Date.now() / 1000);
    env.fake.enqueue({ contents: ["Probability: 20%"] });
    const stream = await chat({ answer_type: "binary", question_id: "multi", stream: true });
    expect(stream.status).toBe(200);
    env.fake.enqueue({ contents: ["Probability: 30%"] });
    await ok(
      call(env.server.url, org.apiKey, "POST", "/v1/completions", {
        model: MODEL,
        prompt: QUESTION,
        answer_type: "BINARY",
        question_id: "multi",
      }),
    );
    env.fake.enqueue({ contents: ["Probability: 40%"] });
    const responses = await ok(
      call(env.server.url, org.apiKey, "POST", "/v1/responses", {
        model: MODEL,
        input: QUESTION,
        answer_type: "binary",
        question_id: "multi",
      }),
    );
    const question = await getQuestion(env.server.url, org.apiKey, "multi");
    expect(question.forecasts.map((forecast) => forecast.answer)).toEqual([0.2, 0.3, 0.4]);
    expect(question.forecasts[2]?.request_id).toBe(responses.headers.get("x-request-id"));
    for (const forecast of question.forecasts) {
      expect(forecast.prediction_date).toBeGreaterThanOrEqual(before);
      expect(forecast.prediction_date).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
    }
  });

  it("keeps a forecast whose answer could not be read, with a null answer", async () => {
    env.fake.enqueue({ contents: ["I cannot say."] }, { contents: ["Still no idea."] });
    await ok(chat({ answer_type: "binary", question_id: "unreadable" }));
    const question = await getQuestion(env.server.url, org.apiKey, "unreadable");
    expect(question.forecasts.map((forecast) => forecast.answer)).toEqual([null]);
  });

  it("records multiple-choice and continuous answers as their tags state them", async () => {
    env.fake.enqueue({ contents: ["A: 60%\nB: 30%\nC: 10%"] });
    await ok(
      call(env.server.url, org.apiKey, "POST", "/v1/chat/completions", {
        model: MODEL,
        messages: [{ role: "user", content: "Who wins?\nA) Alice\nB) Bob\nC) Carol" }],
        answer_type: "multiple_choice",
        question_id: "winner",
      }),
    );
    const winner = await getQuestion(env.server.url, org.apiKey, "winner");
    expect(winner.options).toEqual({ A: "Alice", B: "Bob", C: "Carol" });
    expect(winner.forecasts[0]?.answer).toEqual({ A: 0.6, B: 0.3, C: 0.1 });
  });

  it("records nothing for a request without question_id", async () => {
    const fresh = await env.org("1");
    env.fake.enqueue({ contents: ["Probability: 70%"] });
    await ok(chat({ answer_type: "binary" }, fresh.apiKey));
    const list = await ok(call(env.server.url, fresh.apiKey, "GET", "/v1/questions"));
    expect((list.body as { data: unknown[] }).data).toEqual([]);
  });

  it("refuses question_id without answer_type, and a forecast of another type than its question, before charging", async () => {
    const fresh = await env.org("1");
    const balance = async () =>
      (await call(env.server.url, fresh.apiKey, "GET", "/v1/balance")).body;
    const start = await balance();
    expectErrorResponse(await chat({ question_id: "no-type" }, fresh.apiKey), {
      status: 400,
      code: "answer_type_required",
      param: "answer_type",
    });
    await ok(
      call(env.server.url, fresh.apiKey, "POST", "/v1/questions", {
        id: "typed",
        answer_type: "binary",
      }),
    );
    expectErrorResponse(
      await chat({ question_id: "typed", answer_type: "continuous" }, fresh.apiKey),
      { status: 400, code: "question_answer_type_mismatch", param: "answer_type" },
    );
    expect(await balance()).toEqual(start);
    expect((await getQuestion(env.server.url, fresh.apiKey, "typed")).forecasts).toEqual([]);
  });

  it("refuses to record a question whose text holds a NUL, before any credit is held", async () => {
    const fresh = await env.org("1");
    const balance = async () =>
      (await call(env.server.url, fresh.apiKey, "GET", "/v1/balance")).body;
    const start = await balance();
    const withNul = (content: string, extra: Record<string, unknown>) =>
      call(env.server.url, fresh.apiKey, "POST", "/v1/chat/completions", {
        model: MODEL,
        messages: [{ role: "user", content }],
        answer_type: "binary",
        ...extra,
      });
    expectErrorResponse(await withNul("Will it\u0000 rain?", { question_id: "nul-text" }), {
      status: 400,
      code: "nul_in_question",
      param: "messages",
    });
    const options = "Who wins?\nA) Alice\u0000\nB) Bob";
    expectErrorResponse(
      await withNul(options, { question_id: "nul-option", answer_type: "multiple_choice" }),
      { status: 400, code: "nul_in_question", param: "messages" },
    );
    expect(await balance()).toEqual(start);
    for (const id of ["nul-text", "nul-option"]) {
      const found = await call(env.server.url, fresh.apiKey, "GET", questionPath(id));
      expect(found.status).toBe(404);
    }
    // Without a question to record, the same text is answered.
    env.fake.enqueue({ contents: ["Probability: 70%"] });
    await ok(withNul("Will it\u0000 rain?", {}));
  });

  it("refuses a malformed question_id with a 422", async () => {
    for (const questionId of ["", "tab\there", "x".repeat(257), 42]) {
      const response = await chat({ answer_type: "binary", question_id: questionId });
      expect(response.status, JSON.stringify(questionId)).toBe(422);
    }
  });

  it("takes ids with slashes, colons and spaces, escaped in the URL", async () => {
    const id = "forecastbench/acled:Afghanistan Battles 2025";
    env.fake.enqueue({ contents: ["Probability: 55%"] });
    await ok(chat({ answer_type: "binary", question_id: id }));
    const question = await getQuestion(env.server.url, org.apiKey, id);
    expect(question.id).toBe(id);
    expect(question.forecasts[0]?.answer).toBe(0.55);
  });

  it("answers another organization's question exactly as an unknown one", async () => {
    const stranger = await env.org("1");
    const foreign = await call(env.server.url, stranger.apiKey, "GET", questionPath("fed-cut"));
    expectErrorResponse(foreign, { status: 404, code: "question_not_found", param: "question_id" });
    // Ids are unique per organization: the stranger has its own question by that id.
    env.fake.enqueue({ contents: ["Probability: 10%"] });
    await ok(chat({ answer_type: "binary", question_id: "fed-cut" }, stranger.apiKey));
    const own = await getQuestion(env.server.url, stranger.apiKey, "fed-cut");
    expect(own.forecasts.map((forecast) => forecast.answer)).toEqual([0.1]);
    const original = await getQuestion(env.server.url, org.apiKey, "fed-cut");
    expect(original.forecasts.map((forecast) => forecast.answer)).toEqual([0.7]);
  });
});
