import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reliabilityBins } from "../../src/evaluation/scoring/calibration.js";
import {
  gaussianLogScore,
  multiclassBrierScore,
  multiclassLogScore,
  normalCrps,
} from "../../src/evaluation/scoring/rules.js";
import { scoreCases } from "../../src/evaluation/scoring/score-cases.js";
import type { EvalItem } from "../../src/evaluation/types.js";
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
import { call, ok, questionPath } from "./support/track-api.js";

const OTHER_MODEL = "test-model-2";

interface GroupScores {
  group: string | null;
  binary: {
    n: number;
    imputed: number;
    brier: number | null;
    log_score: number | null;
    calibration: {
      lower: number;
      upper: number;
      n: number;
      mean_forecast: number;
      observed_frequency: number;
    }[];
  };
  multiple_choice: { n: number; imputed: number; brier: number | null; log_score: number | null };
  continuous: { n: number; imputed: number; crps: number | null; log_score: number | null };
  series?: { start: number; binary: { n: number; brier: number | null } }[];
}
interface Report {
  object: "scores";
  group_by: string;
  from: number | null;
  to: number | null;
  bucket: string | null;
  data: GroupScores[];
}

/** What `sibyl eval` makes of binary forecasts (null: unread) against outcomes. */
function evalBinary(pairs: [number | null, number][]) {
  const cases = pairs.map(([probability, outcome], index) => ({
    item: { key: `k${index}`, source: "track" } as EvalItem,
    resolution: {
      itemKey: `k${index}`,
      resolutionDate: null,
      outcome: { type: "binary" as const, value: outcome },
      resolved: true,
    },
    forecast: probability === null ? null : { type: "binary" as const, probability },
  }));
  const { metrics, pairs: scoredPairs } = scoreCases(cases);
  return {
    n: metrics.n,
    imputed: metrics.imputed,
    brier: metrics.brier,
    log_score: metrics.log_score,
    calibration: reliabilityBins(scoredPairs).map((bin) => ({
      lower: bin.lower,
      upper: bin.upper,
      n: bin.n,
      mean_forecast: bin.meanForecast,
      observed_frequency: bin.observedFrequency,
    })),
  };
}

/** The API's binary section, its means rounded as `sibyl eval` rounds them. */
function rounded(section: GroupScores["binary"] | undefined) {
  if (!section) return undefined;
  const round = (value: number | null) => (value === null ? null : Math.round(value * 1e6) / 1e6);
  return {
    ...section,
    brier: round(section.brier),
    log_score: round(section.log_score),
    calibration: section.calibration.map((bin) => ({
      ...bin,
      mean_forecast: expect.closeTo(bin.mean_forecast, 12),
      observed_frequency: expect.closeTo(bin.observed_frequency, 12),
    })),
  };
}

describe.each(DATABASES)("scores on %s", (databaseName) => {
  const databaseUrl = suiteDatabase(databaseName);
  let env: CompletionsEnv;
  let org: TestOrg;
  let botKey: string;
  let botKeyId: string;

  async function forecast(options: {
    question: string;
    reply: string;
    asOf: string;
    answerType?: string;
    model?: string;
    apiKey?: string;
    prompt?: string;
  }) {
    env.fake.enqueue({ contents: [options.reply] }, { contents: ["no idea"] });
    await ok(
      call(env.server.url, options.apiKey ?? org.apiKey, "POST", "/v1/chat/completions", {
        model: options.model ?? MODEL,
        messages: [{ role: "user", content: options.prompt ?? `Will ${options.question} happen?` }],
        answer_type: options.answerType ?? "binary",
        question_id: options.question,
        prediction_date: options.asOf,
      }),
    );
  }
  const resolve = (id: string, body: Record<string, unknown>) =>
    ok(
      call(env.server.url, org.apiKey, "POST", `${questionPath(id)}/resolution`, {
        resolved_at: "2025-03-01",
        ...body,
      }),
    );
  const scores = async (query: string) =>
    (await ok(call(env.server.url, org.apiKey, "GET", `/v1/scores?${query}`))).body as Report;

  beforeAll(async () => {
    const url = databaseUrl();
    env = await startCompletionsEnv({
      ...(url ? { databaseUrl: url } : {}),
      models: (fakeUrl) => [upstreamModel(fakeUrl, { id: OTHER_MODEL })],
    });
    org = await env.org("10");
    const bot = await createKey(env.server.url, org.apiKey, { scope: "inference" });
    botKey = bot.value;
    botKeyId = bot.id;
    const register = (id: string, tags: string[], extra: object = {}) =>
      ok(
        call(env.server.url, org.apiKey, "POST", "/v1/questions", {
          id,
          answer_type: "binary",
          tags,
          ...extra,
        }),
      );
    await register("t1", ["econ"]);
    await register("t2", ["econ", "sports"]);
    await register("t3", ["sports"]);
    await register("mc1", [], {
      answer_type: "multiple_choice",
      options: { A: "a", B: "b", C: "c" },
    });
    await register("c1", [], { answer_type: "continuous" });

    const early = "2025-01-01";
    await forecast({ question: "t1", reply: "Probability: 80%", asOf: early });
    await forecast({ question: "t2", reply: "Probability: 30%", asOf: early });
    await forecast({ question: "t3", reply: "Probability: 60%", asOf: early });
    await forecast({ question: "t3", reply: "I would rather not say.", asOf: early });
    await forecast({ question: "open", reply: "Probability: 50%", asOf: early });
    await forecast({ question: "annulled", reply: "Probability: 90%", asOf: early });
    await forecast({
      question: "mc1",
      answerType: "multiple_choice",
      prompt: "Which one?\nA) a\nB) b\nC) c",
      reply: "A: 20%\nB: 70%\nC: 10%",
      asOf: early,
    });
    await forecast({
      question: "c1",
      answerType: "continuous",
      prompt: "How many units will ship?",
      reply: '{"mean": 12, "standard_deviation": 2}',
      asOf: early,
    });
    const late = "2025-02-01";
    await forecast({
      question: "t1",
      reply: "Probability: 40%",
      asOf: late,
      model: OTHER_MODEL,
      apiKey: botKey,
    });
    await forecast({
      question: "t2",
      reply: "Probability: 10%",
      asOf: late,
      model: OTHER_MODEL,
      apiKey: botKey,
    });

    await resolve("t1", { outcome: 1 });
    await resolve("t2", { outcome: 0 });
    await resolve("t3", { outcome: 1 });
    await resolve("mc1", { outcome: "B" });
    await resolve("c1", { outcome: 10 });
    await resolve("annulled", { annulled: true });
  });
  afterAll(async () => {
    await env?.close();
  });

  it("scores by model exactly as sibyl eval scores the same forecasts", async () => {
    const report = await scores("group_by=model");
    expect(report).toMatchObject({ object: "scores", group_by: "model", from: null, to: null });
    expect(report.data.map((group) => group.group)).toEqual([MODEL, OTHER_MODEL]);
    const [main, other] = report.data;
    expect(rounded(main?.binary)).toEqual(
      evalBinary([
        [0.8, 1],
        [0.3, 0],
        [0.6, 1],
        [null, 1],
      ]),
    );
    expect(main?.binary.imputed).toBe(1);
    expect(rounded(other?.binary)).toEqual(
      evalBinary([
        [0.4, 1],
        [0.1, 0],
      ]),
    );
    expect(main?.multiple_choice).toEqual({
      n: 1,
      imputed: 0,
      brier: expect.closeTo(multiclassBrierScore([0.2, 0.7, 0.1], 1), 12),
      log_score: expect.closeTo(multiclassLogScore([0.2, 0.7, 0.1], 1), 12),
    });
    expect(main?.continuous).toEqual({
      n: 1,
      imputed: 0,
      crps: expect.closeTo(normalCrps(12, 2, 10), 12),
      log_score: expect.closeTo(gaussianLogScore(12, 2, 10), 12),
    });
    expect(other?.multiple_choice).toEqual({ n: 0, imputed: 0, brier: null, log_score: null });
  });

  it("groups by API key and by question tag", async () => {
    const byKey = await scores("group_by=api_key");
    const keyGroup = (id: string) => byKey.data.find((group) => group.group === id);
    expect(keyGroup(org.apiKeyId)?.binary.n).toBe(4);
    expect(rounded(keyGroup(botKeyId)?.binary)).toEqual(
      evalBinary([
        [0.4, 1],
        [0.1, 0],
      ]),
    );

    const byTag = await scores("group_by=tag");
    expect(byTag.data.map((group) => group.group)).toEqual(["econ", "sports"]);
    expect(rounded(byTag.data[0]?.binary)).toEqual(
      evalBinary([
        [0.8, 1],
        [0.3, 0],
        [0.4, 1],
        [0.1, 0],
      ]),
    );
    expect(rounded(byTag.data[1]?.binary)).toEqual(
      evalBinary([
        [0.3, 0],
        [0.6, 1],
        [null, 1],
        [0.1, 0],
      ]),
    );
    expect(byTag.data[0]?.multiple_choice.n).toBe(0);
  });

  it("counts forecasts by prediction date between from (inclusive) and to (exclusive)", async () => {
    const late = await scores("group_by=model&from=2025-02-01");
    expect(late.from).toBe(Date.UTC(2025, 1, 1) / 1000);
    expect(late.data.map((group) => [group.group, group.binary.n])).toEqual([[OTHER_MODEL, 2]]);
    const early = await scores(`group_by=model&to=${Date.UTC(2025, 1, 1) / 1000}`);
    expect(early.data.map((group) => [group.group, group.binary.n])).toEqual([[MODEL, 4]]);
    expect((await scores("group_by=model&from=2026-01-01")).data).toEqual([]);
  });

  it("adds each group's scores per month or week of prediction date with a bucket", async () => {
    const byMonth = await scores("group_by=model&bucket=month");
    expect(byMonth.bucket).toBe("month");
    const whole = byMonth.data.find((group) => group.group === MODEL);
    expect(whole?.series?.map((period) => [period.start, period.binary.n])).toEqual([
      [Date.UTC(2025, 0, 1) / 1000, 4],
    ]);
    expect(whole?.series?.[0]?.binary.brier).toBeCloseTo(whole?.binary.brier ?? Number.NaN, 12);
    const byWeek = await scores("group_by=model&bucket=week");
    const other = byWeek.data.find((group) => group.group === OTHER_MODEL);
    // Weeks start on Monday, UTC.
    for (const period of other?.series ?? []) {
      expect(new Date(period.start * 1000).getUTCDay()).toBe(1);
    }
    expect(other?.series?.reduce((sum, period) => sum + period.binary.n, 0)).toBe(2);
    expect((await scores("group_by=model")).data[0]?.series).toBeUndefined();
  });

  it("refuses a backwards range (400) and unknown groupings (422)", async () => {
    const backwards = await call(
      env.server.url,
      org.apiKey,
      "GET",
      "/v1/scores?from=2025-02-01&to=2025-01-01",
    );
    expectErrorResponse(backwards, { status: 400, code: "invalid_time_range", param: "to" });
    for (const query of ["group_by=question", "from=yesterday", "to=-5"]) {
      const response = await call(env.server.url, org.apiKey, "GET", `/v1/scores?${query}`);
      expect(response.status, query).toBe(422);
    }
  });

  it("shows each organization only its own scores", async () => {
    const stranger = await env.org("1");
    const report = await call(env.server.url, stranger.apiKey, "GET", "/v1/scores?group_by=tag");
    expect((report.body as Report).data).toEqual([]);
  });
});
