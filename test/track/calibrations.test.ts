import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { brierScore } from "../../src/evaluation/scoring/rules.js";
import {
  type CompletionsEnv,
  MODEL,
  startCompletionsEnv,
  upstreamModel,
} from "../completions/support/env.js";
import { createKey } from "../organization/support/api.js";
import { expectErrorResponse } from "../support/http.js";
import type { TestOrg } from "../support/server.js";
import { DATABASES, suiteDatabase } from "./support/databases.js";
import { overConfident, scriptedForecasts, wellCalibrated } from "./support/scripted-forecasts.js";
import { call, getQuestion, ok, questionPath } from "./support/track-api.js";

/** Scripted to say the truth: a map fitted on it beats it by no more than chance. */
const CALIBRATED_MODEL = "test-model-2";
/** Served but never forecast with. */
const IDLE_MODEL = "test-model-3";
const TRAINING = 150;
const HELD_OUT = 60;
/** Seeds whose scripted outcomes show what the proof needs (test/track/recalibration-fit.test.ts
 * counts how often over 100 seeds). */
const TRAINING_SEED = 2;
const HELD_OUT_SEED = 1002;
/** Forecasts recorded with a map applied, then resolved and fitted on again. */
const RECORDED = 30;
const RECORDED_SEED = 3003;

interface CalibrationBody {
  id: string;
  object: "calibration";
  model: string;
  method: "logistic" | "isotonic";
  parameters: Record<string, number | number[]>;
  n: number;
  folds: number;
  brier_before: number;
  brier_after: number;
  improved: boolean;
  candidates: { method: string; brier: number }[];
  created_at: number;
}
interface CalibrationReport {
  id: string | null;
  applied: boolean;
  reason: string | null;
  raw_answer: number | Record<string, number> | null;
}
interface ChatBody {
  choices: { message: { content: string }; forecast?: { calibration?: CalibrationReport } }[];
}

/** The last answer tag of a reply. */
function answerIn(content: string): string {
  const tags = [...content.matchAll(/<answer>(.*?)<\/answer>/g)];
  const last = tags.at(-1)?.[1];
  if (last === undefined) throw new Error(`no answer tag in ${content}`);
  return last;
}

/** The fake model's reply stating `probability`. */
function statement(probability: number) {
  return { contents: [`Probability: ${Math.round(probability * 1000) / 10}%`] };
}

/** Runs the calls `width` at a time. */
async function inBatches<T>(items: T[], width: number, run: (item: T) => Promise<unknown>) {
  for (let start = 0; start < items.length; start += width) {
    await Promise.all(items.slice(start, start + width).map(run));
  }
}

describe.each(DATABASES)("calibrations on %s", (databaseName) => {
  const databaseUrl = suiteDatabase(databaseName);
  let env: CompletionsEnv;
  let org: TestOrg;
  let other: TestOrg;
  let fitted: CalibrationBody;
  let kept: CalibrationBody;

  const chat = (apiKey: string, body: Record<string, unknown>) =>
    call(env.server.url, apiKey, "POST", "/v1/chat/completions", {
      model: MODEL,
      answer_type: "binary",
      ...body,
    });
  /** A question whose reply (queued on the fake upstream, one at a time) states `probability`. */
  const stating = (question: string, probability: number) => {
    env.fake.enqueue(statement(probability));
    return asking(question);
  };
  /** A question refused before the model is called: nothing is queued for it. */
  const asking = (question: string) => [{ role: "user", content: `Will ${question} happen?` }];
  const fitFor = (apiKey: string, model: string) =>
    call(env.server.url, apiKey, "POST", "/v1/calibrations", { model });

  beforeAll(async () => {
    const url = databaseUrl();
    env = await startCompletionsEnv({
      ...(url ? { databaseUrl: url } : {}),
      models: (fakeUrl) => [
        upstreamModel(fakeUrl, { id: CALIBRATED_MODEL }),
        upstreamModel(fakeUrl, { id: IDLE_MODEL }),
      ],
    });
    org = await env.org("100");
    other = await env.org("10");
    const over = scriptedForecasts(TRAINING, TRAINING_SEED, overConfident);
    const well = scriptedForecasts(TRAINING, TRAINING_SEED, wellCalibrated);
    // The fake model answers each call from its model and question, so the two models'
    // forecasts are recorded side by side; each model's in question order, which its folds follow.
    const training = new Map<string, number>();
    for (const index of over.keys()) {
      training.set(`${MODEL} train-${index}`, over[index]?.probability ?? 0.5);
      training.set(`${CALIBRATED_MODEL} train-${index}`, well[index]?.probability ?? 0.5);
    }
    env.fake.setResponder((body) => {
      const { model, messages } = body as { model: string; messages: { content: string }[] };
      const question = /Will (train-\d+) happen\?/.exec(JSON.stringify(messages))?.[1];
      const probability = training.get(`${model} ${question}`);
      return probability === undefined ? undefined : statement(probability);
    });
    await Promise.all(
      [MODEL, CALIBRATED_MODEL].map(async (model) => {
        for (const index of over.keys()) {
          await ok(
            chat(org.apiKey, {
              model,
              messages: asking(`train-${index}`),
              question_id: `train-${index}`,
              prediction_date: "2025-01-01",
            }),
          );
        }
      }),
    );
    env.fake.setResponder(null);
    await inBatches([...over.keys()], 6, (index) =>
      ok(
        call(env.server.url, org.apiKey, "POST", `${questionPath(`train-${index}`)}/resolution`, {
          outcome: over[index]?.outcome,
          resolved_at: "2025-03-01",
        }),
      ),
    );
    fitted = (await ok(fitFor(org.apiKey, MODEL))).body as CalibrationBody;
    kept = (await ok(fitFor(org.apiKey, CALIBRATED_MODEL))).body as CalibrationBody;
  }, 240_000);

  afterAll(async () => {
    await env?.close();
  });

  it("fits the over-confident model's map on its resolved forecasts and finds it improves", () => {
    expect(fitted).toMatchObject({
      object: "calibration",
      model: MODEL,
      n: TRAINING,
      folds: 5,
      improved: true,
    });
    expect(fitted.id).toMatch(/^cal_/);
    expect(fitted.brier_after).toBeLessThan(fitted.brier_before);
    expect(fitted.candidates.map((c) => c.method)).toEqual(["logistic", "isotonic"]);
    if (fitted.method === "logistic") {
      // The model doubles the logit: the map roughly halves it.
      expect(fitted.parameters.b).toBeGreaterThan(0.3);
      expect(fitted.parameters.b).toBeLessThan(0.8);
    }
    expect(kept).toMatchObject({ model: CALIBRATED_MODEL, n: TRAINING, improved: false });
  });

  it("on the held-out half, calibrated answers score a lower Brier than the raw ones", async () => {
    const held = scriptedForecasts(HELD_OUT, HELD_OUT_SEED, overConfident);
    let raw = 0;
    let calibrated = 0;
    for (const [index, forecast] of held.entries()) {
      const reply = (
        await ok(
          chat(org.apiKey, {
            messages: stating(`held-${index}`, forecast.probability),
            calibration: "auto",
          }),
        )
      ).body as ChatBody;
      const choice = reply.choices[0];
      expect(choice?.forecast?.calibration).toMatchObject({
        id: fitted.id,
        applied: true,
        reason: null,
        raw_answer: expect.closeTo(forecast.probability, 12),
      });
      raw += brierScore(forecast.probability, forecast.outcome);
      calibrated += brierScore(Number(answerIn(choice?.message.content ?? "")), forecast.outcome);
    }
    expect(calibrated / HELD_OUT).toBeLessThan(raw / HELD_OUT);
  });

  it("leaves a well-calibrated model's answers as they were, and says why", async () => {
    const reply = (
      await ok(
        chat(org.apiKey, {
          model: CALIBRATED_MODEL,
          messages: stating("kept", 0.83),
          calibration: kept.id,
        }),
      )
    ).body as ChatBody;
    expect(answerIn(reply.choices[0]?.message.content ?? "")).toBe("0.83");
    expect(reply.choices[0]?.forecast?.calibration).toEqual({
      id: kept.id,
      applied: false,
      reason: "not_improved",
      raw_answer: 0.83,
    });
  });

  it("auto without a calibration of the model keeps the answer", async () => {
    const reply = (
      await ok(
        chat(org.apiKey, {
          model: IDLE_MODEL,
          messages: stating("idle", 0.9),
          calibration: "auto",
        }),
      )
    ).body as ChatBody;
    expect(answerIn(reply.choices[0]?.message.content ?? "")).toBe("0.9");
    expect(reply.choices[0]?.forecast?.calibration).toEqual({
      id: null,
      applied: false,
      reason: "no_calibration",
      raw_answer: 0.9,
    });
  });

  it("maps each multiple-choice option, then renormalises", async () => {
    env.fake.enqueue({ contents: ["A: 80%\nB: 15%\nC: 5%"] });
    const reply = (
      await ok(
        chat(org.apiKey, {
          answer_type: "multiple_choice",
          messages: [
            {
              role: "user",
              content: "Which one?\nA) a\nB) b\nC) c",
            },
          ],
          calibration: fitted.id,
        }),
      )
    ).body as ChatBody;
    const choice = reply.choices[0];
    expect(choice?.forecast?.calibration).toMatchObject({
      id: fitted.id,
      applied: true,
      raw_answer: { A: 0.8, B: 0.15, C: 0.05 },
    });
    const answer = JSON.parse(answerIn(choice?.message.content ?? "")) as Record<string, number>;
    const sum = Object.values(answer).reduce((total, p) => total + p, 0);
    expect(sum).toBeCloseTo(1, 6);
    // Over-confidence taken out: the favourite gives up probability to the others.
    expect(answer.A).toBeLessThan(0.8);
    expect(answer.C).toBeGreaterThan(0.05);
    expect(answer.A).toBeGreaterThan(answer.B ?? 1);
  });

  it("applies to text completions and the Responses API", async () => {
    env.fake.enqueue({ contents: ["Probability: 90%"] });
    const text = await ok(
      call(env.server.url, org.apiKey, "POST", "/v1/completions", {
        model: MODEL,
        prompt: "Will it rain tomorrow?",
        answer_type: "binary",
        calibration: fitted.id,
      }),
    );
    const textChoice = (
      text.body as { choices: { text: string; forecast: { calibration: CalibrationReport } }[] }
    ).choices[0];
    expect(textChoice?.forecast.calibration).toMatchObject({ applied: true, raw_answer: 0.9 });
    expect(Number(answerIn(textChoice?.text ?? ""))).toBeLessThan(0.9);

    env.fake.enqueue({ contents: ["Probability: 90%"] });
    const response = await ok(
      call(env.server.url, org.apiKey, "POST", "/v1/responses", {
        model: MODEL,
        input: "Will it rain tomorrow?",
        answer_type: "binary",
        calibration: "auto",
      }),
    );
    const body = response.body as {
      forecast: { calibration: CalibrationReport };
      output: { type: string; content?: { text: string }[] }[];
    };
    expect(body.forecast.calibration).toMatchObject({
      id: fitted.id,
      applied: true,
      raw_answer: 0.9,
    });
    const message = body.output.find((item) => item.type === "message");
    expect(Number(answerIn(message?.content?.[0]?.text ?? ""))).toBeLessThan(0.9);
  });

  it("applies to a streamed chat completion: the tags and the last chunk's forecast", async () => {
    env.fake.enqueue({ contents: ["Probability: 90%"] });
    const stream = await env.client(org.apiKey).chat.completions.create({
      model: MODEL,
      messages: [{ role: "user", content: "Will it rain tomorrow?" }],
      stream: true,
      // Sibyl's extensions, passed through by the SDK.
      ...{ answer_type: "binary", calibration: fitted.id },
    });
    let content = "";
    let report: CalibrationReport | undefined;
    for await (const chunk of stream) {
      const choice = chunk.choices[0] as
        | ((typeof chunk.choices)[number] & { forecast?: { calibration?: CalibrationReport } })
        | undefined;
      content += choice?.delta.content ?? "";
      report = choice?.forecast?.calibration ?? report;
    }
    expect(report).toMatchObject({ id: fitted.id, applied: true, raw_answer: 0.9 });
    expect(Number(answerIn(content))).toBeLessThan(0.9);
  });

  it("lists and retrieves calibrations, newest first, filtered by model", async () => {
    const list = (await ok(call(env.server.url, org.apiKey, "GET", "/v1/calibrations"))).body as {
      data: CalibrationBody[];
      has_more: boolean;
    };
    expect(list.data.map((c) => c.id)).toEqual([kept.id, fitted.id]);
    const page = (
      await ok(call(env.server.url, org.apiKey, "GET", `/v1/calibrations?limit=1&model=${MODEL}`))
    ).body as { data: CalibrationBody[]; has_more: boolean };
    expect(page.data.map((c) => c.id)).toEqual([fitted.id]);
    expect(page.has_more).toBe(false);
    const next = (
      await ok(call(env.server.url, org.apiKey, "GET", `/v1/calibrations?limit=1&after=${kept.id}`))
    ).body as { data: CalibrationBody[] };
    expect(next.data.map((c) => c.id)).toEqual([fitted.id]);
    const one = await ok(call(env.server.url, org.apiKey, "GET", `/v1/calibrations/${fitted.id}`));
    expect(one.body).toEqual(fitted);
  });

  it("refuses a fit on too few resolved forecasts, saying how many are needed", async () => {
    const response = await fitFor(org.apiKey, IDLE_MODEL);
    expectErrorResponse(response, { status: 422, code: "too_few_forecasts", param: "model" });
    expect(JSON.stringify(response.body)).toContain("at least 30 resolved binary forecasts");
    expect(JSON.stringify(response.body)).toContain("has 0");
    expectErrorResponse(await fitFor(org.apiKey, "no-such-model"), {
      status: 400,
      code: "model_not_found",
      param: "model",
    });
  });

  it("needs an admin key to fit; an inference key may still apply one", async () => {
    const bot = await createKey(env.server.url, org.apiKey, { scope: "inference" });
    expectErrorResponse(await fitFor(bot.value, MODEL), {
      status: 403,
      code: "insufficient_scope",
    });
    const reply = (
      await ok(chat(bot.value, { messages: stating("bot", 0.9), calibration: fitted.id }))
    ).body as ChatBody;
    expect(reply.choices[0]?.forecast?.calibration?.applied).toBe(true);
  });

  it("another organization's calibration is a 404, in its routes and in a request", async () => {
    expectErrorResponse(
      await call(env.server.url, other.apiKey, "GET", `/v1/calibrations/${fitted.id}`),
      { status: 404, code: "calibration_not_found", param: "calibration_id" },
    );
    const list = (await ok(call(env.server.url, other.apiKey, "GET", "/v1/calibrations"))).body as {
      data: unknown[];
    };
    expect(list.data).toEqual([]);
    expectErrorResponse(
      await call(env.server.url, other.apiKey, "GET", `/v1/calibrations?after=${fitted.id}`),
      { status: 404, code: "calibration_not_found", param: "after" },
    );
    expectErrorResponse(
      await chat(other.apiKey, { messages: asking("x"), calibration: fitted.id }),
      { status: 404, code: "calibration_not_found", param: "calibration" },
    );
    // auto in the other organization finds none of this one's maps.
    const reply = (
      await ok(chat(other.apiKey, { messages: stating("x", 0.9), calibration: "auto" }))
    ).body as ChatBody;
    expect(reply.choices[0]?.forecast?.calibration?.reason).toBe("no_calibration");
  });

  it("refuses calibrations that cannot apply, before anything is charged", async () => {
    const before = await call(env.server.url, org.apiKey, "GET", "/v1/balance");
    expectErrorResponse(
      await chat(org.apiKey, { messages: asking("x"), calibration: "cal_unknown0000" }),
      { status: 404, code: "calibration_not_found", param: "calibration" },
    );
    expectErrorResponse(
      await chat(org.apiKey, {
        model: CALIBRATED_MODEL,
        messages: asking("x"),
        calibration: fitted.id,
      }),
      { status: 400, code: "calibration_model_mismatch", param: "calibration" },
    );
    expectErrorResponse(
      await call(env.server.url, org.apiKey, "POST", "/v1/chat/completions", {
        model: MODEL,
        messages: asking("x"),
        calibration: "auto",
      }),
      { status: 400, code: "answer_type_required", param: "answer_type" },
    );
    expectErrorResponse(
      await chat(org.apiKey, {
        answer_type: "continuous",
        messages: asking("x"),
        calibration: "auto",
      }),
      { status: 400, code: "calibration_not_applicable", param: "calibration" },
    );
    expectErrorResponse(
      await chat(org.apiKey, {
        messages: asking("x"),
        calibration: "auto",
        ensemble: { samples: 3 },
      }),
      { status: 400, code: "calibration_not_applicable", param: "calibration" },
    );
    const malformed = await chat(org.apiKey, { messages: asking("x"), calibration: "latest" });
    expect(malformed.status).toBe(422);
    expect(JSON.stringify(malformed.body)).toContain("calibration");
    const after = await call(env.server.url, org.apiKey, "GET", "/v1/balance");
    expect(after.body).toEqual(before.body);
  });

  // Last: it fits the model again, which the tests above would take for its latest map.
  it("records the calibrated answer it returned and the model's own; a later fit uses the model's own", async () => {
    const recorded = scriptedForecasts(RECORDED, RECORDED_SEED, overConfident);
    const returned: number[] = [];
    for (const [index, forecast] of recorded.entries()) {
      const question = `recorded-${index}`;
      const extensions = {
        calibration: fitted.id,
        question_id: question,
        prediction_date: "2025-01-01",
      };
      const messages = stating(question, forecast.probability);
      // One streamed: its forecast is recorded when the stream is charged.
      if (index === 0) {
        const stream = await env.client(org.apiKey).chat.completions.create({
          model: MODEL,
          messages: [{ role: "user", content: messages[0]?.content ?? "" }],
          stream: true,
          ...{ answer_type: "binary", ...extensions },
        });
        let content = "";
        for await (const chunk of stream) content += chunk.choices[0]?.delta.content ?? "";
        returned.push(Number(answerIn(content)));
      } else {
        const reply = (await ok(chat(org.apiKey, { messages, ...extensions }))).body as ChatBody;
        returned.push(Number(answerIn(reply.choices[0]?.message.content ?? "")));
      }
      const { forecasts } = await getQuestion(env.server.url, org.apiKey, question);
      expect(forecasts).toEqual([
        expect.objectContaining({
          answer: returned[index],
          raw_answer: forecast.probability,
          calibration_id: fitted.id,
        }),
      ]);
    }
    expect(returned.every((p, index) => p !== recorded[index]?.probability)).toBe(true);
    await inBatches([...recorded.keys()], 6, (index) =>
      ok(
        call(
          env.server.url,
          org.apiKey,
          "POST",
          `${questionPath(`recorded-${index}`)}/resolution`,
          {
            outcome: recorded[index]?.outcome,
            resolved_at: "2025-03-01",
          },
        ),
      ),
    );
    // The track record scores what the user was given: the calibrated answer.
    const { forecasts } = await getQuestion(env.server.url, org.apiKey, "recorded-1");
    expect(forecasts[0]?.scores?.brier).toBeCloseTo(
      brierScore(returned[1] ?? 0, recorded[1]?.outcome ?? 0),
      12,
    );

    // Fitted again on every resolved forecast: the training ones and the model's own answers
    // to these, never the calibrated answers it was given back.
    const training = scriptedForecasts(TRAINING, TRAINING_SEED, overConfident);
    const own = [...training, ...recorded];
    const refit = (await ok(fitFor(org.apiKey, MODEL))).body as CalibrationBody;
    expect(refit.n).toBe(TRAINING + RECORDED);
    expect(refit.brier_before).toBeCloseTo(
      own.reduce((sum, pair) => sum + brierScore(pair.probability, pair.outcome), 0) / own.length,
      12,
    );
  }, 120_000);
});
