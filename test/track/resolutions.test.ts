import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CompletionsEnv, MODEL, startCompletionsEnv } from "../completions/support/env.js";
import { createKey } from "../organization/support/api.js";
import { expectErrorResponse } from "../support/http.js";
import type { TestOrg } from "../support/server.js";
import { DATABASES, suiteDatabase } from "./support/databases.js";
import { call, getQuestion, ok, type QuestionBody, questionPath } from "./support/track-api.js";

const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 1000;

describe.each(DATABASES)("resolutions on %s", (databaseName) => {
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

  /** A forecast of `probability` on a binary question, as of `asOf`. */
  async function forecast(
    questionId: string,
    probability: number,
    asOf: string,
    apiKey = org.apiKey,
  ) {
    env.fake.enqueue({ contents: [`Probability: ${probability * 100}%`] });
    await ok(
      call(env.server.url, apiKey, "POST", "/v1/chat/completions", {
        model: MODEL,
        messages: [{ role: "user", content: `Will ${questionId} happen?` }],
        answer_type: "binary",
        question_id: questionId,
        prediction_date: asOf,
      }),
    );
  }

  const resolve = (id: string, body: Record<string, unknown>, apiKey = org.apiKey) =>
    call(env.server.url, apiKey, "POST", `${questionPath(id)}/resolution`, body);

  it("scores every forecast of the question with the rules of sibyl eval", async () => {
    await forecast("rain", 0.7, "2025-01-01");
    await forecast("rain", 0.2, "2025-01-02");
    const resolved = (await ok(resolve("rain", { outcome: 1, resolved_at: "2025-01-10" })))
      .body as QuestionBody;
    expect(resolved).toMatchObject({
      status: "resolved",
      outcome: 1,
      resolved_at: day("2025-01-10"),
    });
    const [first, second] = resolved.forecasts;
    expect(first?.scores?.brier).toBeCloseTo(0.09, 10);
    expect(first?.scores?.log_score).toBeCloseTo(Math.log(0.7), 10);
    expect(second?.scores?.brier).toBeCloseTo(0.64, 10);
    expect(resolved.resolutions).toEqual([
      {
        outcome: 1,
        annulled: false,
        resolved_at: day("2025-01-10"),
        recorded_at: expect.any(Number),
        forced: false,
        recorded_by: org.apiKeyId,
      },
    ]);
  });

  it("takes the same resolution again without change, refuses a different one (409) unless forced, and keeps the history", async () => {
    await forecast("snow", 0.9, "2025-01-01");
    await ok(resolve("snow", { outcome: 1, resolved_at: "2025-02-01" }));
    const same = (await ok(resolve("snow", { outcome: 1, resolved_at: "2025-02-01" })))
      .body as QuestionBody;
    expect(same.resolutions).toHaveLength(1);

    const other = await resolve("snow", { outcome: 0, resolved_at: "2025-02-01" });
    expectErrorResponse(other, { status: 409, code: "question_already_resolved" });
    expect(other.headers.get("x-should-retry")).toBe("false");
    expect((await getQuestion(env.server.url, org.apiKey, "snow")).outcome).toBe(1);

    const forced = (
      await ok(resolve("snow", { outcome: 0, resolved_at: "2025-02-02", force: true }))
    ).body as QuestionBody;
    expect(forced.outcome).toBe(0);
    expect(forced.resolutions.map((r) => [r.outcome, r.forced])).toEqual([
      [1, false],
      [0, true],
    ]);
    expect(forced.forecasts[0]?.scores?.brier).toBeCloseTo(0.81, 10);

    const annulled = (await ok(resolve("snow", { annulled: true, force: true })))
      .body as QuestionBody;
    expect(annulled).toMatchObject({ status: "annulled", outcome: null });
    expect(annulled.forecasts[0]?.scores).toBeNull();
    expect(annulled.resolutions).toHaveLength(3);
  });

  it("refuses a resolution dated before a forecast's prediction date, forced or not", async () => {
    await forecast("late", 0.4, "2025-03-10");
    for (const force of [false, true]) {
      const response = await resolve("late", { outcome: 1, resolved_at: "2025-03-09", force });
      expectErrorResponse(response, {
        status: 409,
        code: "resolution_before_forecast",
        param: "resolved_at",
      });
    }
    expect((await getQuestion(env.server.url, org.apiKey, "late")).status).toBe("open");
  });

  it("refuses an outcome of the wrong type with a 422 that names the expected type", async () => {
    await ok(
      call(env.server.url, org.apiKey, "POST", "/v1/questions", { id: "b", answer_type: "binary" }),
    );
    await ok(
      call(env.server.url, org.apiKey, "POST", "/v1/questions", {
        id: "mc",
        answer_type: "multiple_choice",
        options: { A: "red", B: "blue" },
      }),
    );
    await ok(
      call(env.server.url, org.apiKey, "POST", "/v1/questions", {
        id: "n",
        answer_type: "continuous",
      }),
    );
    const cases: [string, unknown, RegExp][] = [
      ["b", "A", /0 or 1 \(binary question\)/],
      ["b", 0.5, /0 or 1 \(binary question\)/],
      ["b", null, /0 or 1 \(binary question\)/],
      ["mc", 1, /option letter.*multiple_choice/],
      ["mc", "C", /one of the question's options \(A, B\)/],
      ["n", "12", /a number \(continuous question\)/],
    ];
    for (const [id, outcome, expected] of cases) {
      const response = await resolve(id, { outcome });
      expectErrorResponse(response, { status: 422, code: "invalid_outcome", param: "outcome" });
      const body = response.body as {
        error: { message: string };
        detail: { loc: unknown[]; input: unknown }[];
      };
      expect(body.error.message).toMatch(expected);
      expect(body.detail[0]).toMatchObject({ loc: ["body", "outcome"], input: outcome });
    }
    expectErrorResponse(await resolve("b", { annulled: true, outcome: 1 }), {
      status: 422,
      code: "invalid_outcome",
    });
    expectErrorResponse(await resolve("b", { outcome: 1, resolved_at: "2999-01-01" }), {
      status: 422,
      code: "invalid_resolution_time",
      param: "resolved_at",
    });
    expect((await ok(resolve("mc", { outcome: "B" }))).body).toMatchObject({ outcome: "B" });
    expect((await ok(resolve("n", { outcome: -3.5 }))).body).toMatchObject({ outcome: -3.5 });
  });

  it("answers an unknown or foreign question with 404 and needs an admin key (403)", async () => {
    expectErrorResponse(await resolve("never-asked", { outcome: 1 }), {
      status: 404,
      code: "question_not_found",
      param: "question_id",
    });
    const stranger = await env.org("1");
    expectErrorResponse(await resolve("rain", { outcome: 0, force: true }, stranger.apiKey), {
      status: 404,
      code: "question_not_found",
    });
    const inference = await createKey(env.server.url, org.apiKey, { scope: "inference" });
    const refused = await resolve("rain", { outcome: 0, force: true }, inference.value);
    expectErrorResponse(refused, { status: 403, code: "insufficient_scope" });
    expect((refused.body as { error: { message: string } }).error.message).toMatch(
      /resolving questions/,
    );
    expect((await getQuestion(env.server.url, org.apiKey, "rain")).outcome).toBe(1);
  });

  it("scores a forecast made on an already resolved question when it is dated before the outcome", async () => {
    await forecast("past", 0.6, "2025-01-01");
    await ok(resolve("past", { outcome: 0, resolved_at: "2025-01-05" }));
    await forecast("past", 0.1, "2025-01-03");
    await forecast("past", 0.3, "2025-01-06");
    const question = await getQuestion(env.server.url, org.apiKey, "past");
    expect(question.forecasts.map((f) => f.scores?.brier ?? null)).toEqual([
      expect.closeTo(0.36, 10),
      expect.closeTo(0.01, 10),
      null,
    ]);
  });
});
