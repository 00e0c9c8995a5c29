import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SubmissionFile } from "../../src/evaluation/outputs/forecast-rows.js";
import { normalCrps } from "../../src/evaluation/scoring/rules.js";
import { type BatchServer, startBatchServer } from "../batches/support/batch-server.js";
import {
  evalRun,
  fixture,
  readJsonLines,
  readSummary,
  sibyl,
  tempDir,
} from "./support/backtest-cli.js";
import { type ForecasterUpstream, startForecasterUpstream } from "./support/forecaster-upstream.js";

/**
 * Replies as a forecaster would write them, varying by question and by sample: PNC questions
 * 30%, everything else 80%; samples 0, 1, 2 of three are 10 points below, at and above that.
 */
function answer(prompt: string, index: number, n: number): string {
  const offset = n === 3 ? (index - 1) * 10 : 0;
  if (prompt.includes("Options:")) return "Weighing the teams.\nA: 20%\nB: 60%\nC: 20%";
  if (prompt.includes("temperature")) {
    return `Seasonal reasoning.\nMean: ${17 + offset / 10}\nStandard deviation: 2`;
  }
  const base = prompt.includes("PNC") ? 30 : 80;
  return `Weighing the evidence.\nProbability: ${base + offset}%`;
}

describe("sibyl eval run against a real Sibyl server", () => {
  let upstream: ForecasterUpstream;
  let server: BatchServer;
  let apiKey: string;

  beforeAll(async () => {
    upstream = await startForecasterUpstream(answer);
    server = await startBatchServer({
      config: {
        models: [
          { id: "sibyl-baseline", provider: "baseline" },
          {
            id: "fake-forecaster",
            provider: "openai",
            base_url: upstream.url,
            pricing: { prompt: "0.000001", completion: "0.000002" },
          },
        ],
      },
    });
    ({
      org: { apiKey },
    } = await server.client("10"));
  });
  afterAll(async () => {
    await server.close();
    await upstream.close();
  });

  it("backtests two models on a ForecastBench set and writes every output", async () => {
    const out = path.join(tempDir(), "fb");
    const run = await evalRun(
      {
        questions: fixture("2026-07-05-llm.json"),
        resolutions: fixture("2026-07-05_resolution_set.json"),
        models: ["sibyl-baseline", "fake-forecaster"],
        baseUrl: server.url,
        out,
      },
      apiKey,
    );
    expect(run.stderr).not.toMatch(/resuming/);
    expect(run.code).toBe(0);
    // Plain progress lines off a terminal, the last with every line done and the money spent.
    expect(run.stderr.split("\n").at(-1)).toMatch(
      /^eval: 42\/42 done · 0 failed · \$0\.\d{4} spent · sibyl-baseline completed, fake-forecaster completed$/,
    );
    const printed = JSON.parse(run.stdout) as { leak_check_ok: boolean; models: object };
    expect(printed.leak_check_ok).toBe(true);

    const summary = readSummary(out);
    // A constant 0.5 scores exactly 0.25 on every resolved case; 8 of the 9 are resolved.
    expect(summary.models["sibyl-baseline"]).toMatchObject({
      pooled_brier: 0.25,
      n: 8,
      parse_rate: 1,
      imputed: 0,
      requests: { asked: 21, failed: 0, refused_for_credits: 0 },
    });
    // Markets (4 × 0.8 vs 1), fred (0.8 vs 0 and 1), PNC (0.3 vs 1, twice).
    const fake = summary.models["fake-forecaster"];
    expect(fake?.pooled_brier).toBeCloseTo((4 * 0.04 + 0.64 + 0.04 + 2 * 0.49) / 8, 6);
    expect(fake?.n).toBe(8);
    expect(fake?.parse_rate).toBe(1);
    expect(fake?.cost_usd).toBeGreaterThan(0);
    expect(fake?.by_source.yfinance).toEqual({ n: 2, brier: 0.49 });
    expect(fake?.pooled_brier_ci?.[0]).toBeLessThanOrEqual(fake?.pooled_brier ?? 0);
    // Read from the model's own replies: no re-ask.
    expect(fake).toMatchObject({ raw_parse_rate: 1, re_asked: 0 });
    // ForecastBench's figures: resolved dataset rows (fred 0.64 and 0.04, PNC 0.49 twice) and
    // resolved markets (4 × 0.04) each make a mean; overall is their mean.
    expect(fake?.forecastbench?.dataset).toMatchObject({ n: 4, brier: 0.415 });
    expect(fake?.forecastbench?.market).toMatchObject({ n: 4, brier: 0.04 });
    expect(fake?.forecastbench?.overall).toMatchObject({ n: 8, brier: 0.2275 });
    expect(fake?.forecastbench?.imputation).toMatchObject({ overall_pct: 0, over_cutoff: false });
    expect(fake?.forecastbench?.difficulty_adjusted).toBeNull();
    expect(summary.imputation_rule).toEqual({ cutoff_pct: 5, over_cutoff: [] });
    // One table row per resolution row, each with both models' forecasts.
    expect(summary.questions).toHaveLength(9);
    expect(
      summary.questions.find((row) => row.id === "40701")?.forecasts["fake-forecaster"],
    ).toMatchObject({
      forecast: 0.8,
      score: 0.04,
      imputed: false,
    });
    expect(summary.baselines["always_0.5"]).toMatchObject({ pooled_brier: 0.25, n: 8 });
    const markets = JSON.parse(readFileSync(fixture("2026-07-05-llm.json"), "utf8")) as {
      questions: { id: string; freeze_datetime_value: string }[];
    };
    const freeze = (id: string) =>
      Number(markets.questions.find((q) => q.id === id)?.freeze_datetime_value);
    const resolvedMarkets = [
      "IR8S8CNh8E",
      "40701",
      "0x21ab0908882e00031041d17716d3c6c56d93dfc5f460c551c33fec2ea33ae112",
      "1717",
    ];
    expect(summary.baselines.market_freeze?.n).toBe(4);
    expect(summary.baselines.market_freeze?.pooled_brier).toBeCloseTo(
      resolvedMarkets.reduce((sum, id) => sum + (freeze(id) - 1) ** 2, 0) / 4,
      6,
    );
    // Median of the two models: 0.65 where the fake says 0.8, 0.4 where it says 0.3.
    expect(summary.ensembles.ensemble_median?.pooled_brier).toBeCloseTo(
      (4 * 0.35 ** 2 + 0.65 ** 2 + 0.35 ** 2 + 2 * 0.6 ** 2) / 8,
      6,
    );
    expect(summary.paired_differences.map((pair) => [pair.a, pair.b, pair.n])).toEqual([
      ["sibyl-baseline", "fake-forecaster", 8],
      ["sibyl-baseline", "always_0.5", 8],
      ["fake-forecaster", "always_0.5", 8],
    ]);
    expect(summary.leak_check).toMatchObject({
      ok: true,
      requests: {
        lines: 42,
        missing_prediction_date: 0,
        missing_answer_type: 0,
        prediction_date_after_due_date: 0,
      },
      research: null,
    });
    expect(summary.cases).toEqual({ scored: 8, unresolved: 1, resolved_before_prediction_date: 0 });

    // The as-of date reached the model on every request it was asked.
    expect(upstream.requests.length).toBeGreaterThanOrEqual(21);
    for (const request of upstream.requests) {
      const system = request.messages.filter((m) => m.role === "system").map((m) => m.content);
      expect(system.join("\n")).toContain("2026-07-05 (UTC)");
    }

    // Every batch line, as the server stores it, carried prediction_date and answer_type.
    const state = JSON.parse(readFileSync(path.join(out, "state.json"), "utf8")) as {
      models: Record<string, { input_file_id: string; batch_id: string }>;
    };
    expect(Object.keys(state.models).sort()).toEqual(["fake-forecaster", "sibyl-baseline"]);
    const ownClient = new OpenAI({ apiKey, baseURL: `${server.url}/v1` });
    for (const entry of Object.values(state.models)) {
      const content = await (await ownClient.files.content(entry.input_file_id)).text();
      const lines = content
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as { body: Record<string, unknown> });
      expect(lines).toHaveLength(21);
      for (const line of lines) {
        expect(line.body.prediction_date).toBe("2026-07-05");
        expect(line.body.answer_type).toBe("binary");
      }
    }

    const rows = readJsonLines(path.join(out, "forecasts.jsonl"));
    expect(rows).toHaveLength(42);
    const pncRow = rows.find(
      (row) => row.model === "fake-forecaster" && row.key === "yfinance/PNC@2026-07-12",
    );
    expect(pncRow).toMatchObject({
      id: "PNC",
      source: "yfinance",
      resolution_date: "2026-07-12",
      prediction_date: "2026-07-05",
      forecast: 0.3,
      imputed: false,
      resolutions: [{ resolution_date: "2026-07-12", outcome: 1, resolved: true }],
    });
    expect(pncRow?.reasoning).toContain("Weighing the evidence.");

    const submissions = readdirSync(path.join(out, "forecastbench")).sort();
    expect(submissions).toEqual([
      "2026-07-05.Sibyl.fake-forecaster.json",
      "2026-07-05.Sibyl.sibyl-baseline.json",
    ]);
    const submission = JSON.parse(
      readFileSync(
        path.join(out, "forecastbench", "2026-07-05.Sibyl.fake-forecaster.json"),
        "utf8",
      ),
    ) as SubmissionFile;
    expect(submission).toMatchObject({
      organization: "Sibyl",
      model: "fake-forecaster",
      forecast_due_date: "2026-07-05",
      question_set: "2026-07-05-llm.json",
    });
    expect(submission.forecasts).toHaveLength(21);
    expect(submission.forecasts.find((f) => f.id === "40701")).toMatchObject({
      source: "metaculus",
      forecast: 0.8,
      resolution_date: null,
    });
    expect(Object.keys(submission.forecasts[0] ?? {}).sort()).toEqual([
      "direction",
      "forecast",
      "id",
      "reasoning",
      "resolution_date",
      "source",
    ]);

    const svg = readFileSync(path.join(out, "calibration.svg"), "utf8");
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    // Every bin a mark labelled with its numbers: 0.8 on six resolved cases, five of them yes.
    expect(svg).toContain(
      'aria-label="fake-forecaster: forecasts 0.8–0.9, mean 0.800, observed 0.833, n=6"',
    );
    expect(svg).toContain(
      'aria-label="fake-forecaster: forecasts 0.3–0.4, mean 0.300, observed 1.000, n=2"',
    );
    expect(svg).toContain(">market_freeze</text>");
    expect(svg).not.toContain(">always_0.5</text>");
    const html = readFileSync(path.join(out, "report.html"), "utf8");
    expect(html).toContain('<figure id="calibration">');
    expect(html).toContain("<svg");
    expect(html).toContain("Leak check passed.");
    expect(html).toContain("Brier by source");
    // Self-contained: nothing loaded from elsewhere (its one script is inline).
    expect(html).not.toMatch(/<link|\ssrc=|url\(/i);
  });

  it("backtests Sibyl's own questions with samples, and flags outcomes known on the as-of date", async () => {
    const out = path.join(tempDir(), "jsonl");
    const run = await evalRun(
      {
        questions: fixture("questions.jsonl"),
        models: ["fake-forecaster"],
        baseUrl: `${server.url}/v1`,
        out,
        flags: [
          "--samples",
          "3",
          "--aggregate",
          "median",
          "--knowledge-cutoff",
          "fake-forecaster=2025-06-01",
        ],
      },
      apiKey,
    );
    expect(run.code).toBe(0);
    const summary = readSummary(out);
    const scores = summary.models["fake-forecaster"];
    // rain (yes) and snow (no) at the median 0.8; "late" resolved before its as-of date.
    expect(scores?.pooled_brier).toBeCloseTo((0.04 + 0.64) / 2, 6);
    expect(scores?.multiple_choice).toMatchObject({ n: 1, brier: 0.24 });
    // Means 16, 17, 18 with sd 2: the median mean, and the mixture's sd √(4 + 2/3).
    expect(scores?.continuous?.crps).toBeCloseTo(normalCrps(17, Math.sqrt(4 + 2 / 3), 18), 5);
    expect(scores?.sample_parse_rate).toBe(1);
    // The first sample alone said 0.7.
    expect(scores?.first_sample?.brier).toBeCloseTo((0.09 + 0.49) / 2, 6);
    expect(summary.leak_check.resolved_before_prediction_date.count).toBe(1);
    // Trained past the as-of date: warned about, the requests themselves are still sound.
    expect(summary.leak_check.knowledge_cutoff_warnings).toEqual([
      {
        model: "fake-forecaster",
        knowledge_cutoff: "2025-06-01",
        requests_before_cutoff: 6,
        earliest_prediction_date: "2025-03-01",
      },
    ]);
    expect(run.stderr).toMatch(
      /fake-forecaster has knowledge cutoff 2025-06-01, after the prediction date of 6 request/,
    );
    expect(summary.leak_check.ok).toBe(true);
    expect(summary.question_set.skipped.unsupported).toBe(1);
    expect(summary.warnings.join("\n")).toMatch(
      /1 resolution\(s\) dated before their prediction date/,
    );
    expect(run.stderr).toMatch(/eval: warning: 1 resolution/);

    const lines = readJsonLines(path.join(out, "requests", "fake-forecaster.jsonl"));
    expect(lines).toHaveLength(6);
    for (const line of lines) {
      const body = line.body as Record<string, unknown>;
      expect(body.n).toBe(3);
      expect(body.prediction_date).toBe("2025-03-01");
      expect(["binary", "multiple_choice", "continuous"]).toContain(body.answer_type);
    }
    expect(existsSync(path.join(out, "forecastbench"))).toBe(true);
    expect(readdirSync(path.join(out, "forecastbench"))).toEqual([]);

    // Scored again offline with another aggregate: the mean of 0.7, 0.8, 0.9 is 0.8 too.
    expect(readSummary(out).held_out_calibration).toBeUndefined();
    const report = await sibyl(
      ["eval", "report", "--out", out, "--aggregate", "mean", "--calibrate"],
      apiKey,
      out,
    );
    expect(report.code).toBe(0);
    expect(readSummary(out).run.aggregate).toBe("mean");
    expect(readSummary(out).models["fake-forecaster"]?.pooled_brier).toBeCloseTo(0.34, 6);
    // --calibrate: a handful of questions is too few to fit a map on, and the report says so.
    const calibration = readSummary(out).held_out_calibration;
    expect(calibration?.seed).toBe(0);
    expect(calibration?.models["fake-forecaster"]).toMatchObject({
      method: null,
      held_out_brier_calibrated: null,
    });
    expect(calibration?.models["fake-forecaster"]?.note).toMatch(/at least 30/);
    expect(readFileSync(path.join(out, "report.html"), "utf8")).toContain(
      'id="held-out-calibration"',
    );
  });

  it("rejects bad invocations with a clear message", async () => {
    const out = tempDir();
    const noKey = await sibyl(
      ["eval", "run", "--questions", fixture("questions.jsonl"), "--model", "x"],
      "",
      out,
    );
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toMatch(/needs an API key: --api-key KEY or the SIBYL_API_KEY variable/);
    const unknownModel = await sibyl(
      [
        "eval",
        "run",
        "--questions",
        fixture("questions.jsonl"),
        "--model",
        "nope",
        "--base-url",
        server.url,
        "--out",
        out,
      ],
      apiKey,
      out,
    );
    expect(unknownModel.code).toBe(1);
    expect(unknownModel.stderr).toMatch(
      /unknown model\(s\) nope; the endpoint lists: sibyl-baseline, fake-forecaster/,
    );
    const badAggregate = await sibyl(
      [
        "eval",
        "run",
        "--questions",
        fixture("questions.jsonl"),
        "--model",
        "x",
        "--aggregate",
        "mode",
      ],
      apiKey,
      out,
    );
    expect(badAggregate.code).toBe(2);
    expect(badAggregate.stderr).toMatch(
      /--aggregate must be one of median, mean, logit_mean, trimmed_mean/,
    );
    const questions = ["eval", "run", "--questions", fixture("questions.jsonl"), "--model", "x"];
    const badLeaderboard = await sibyl(
      [...questions, "--reference", out, "--leaderboard", "weekly"],
      apiKey,
      out,
    );
    expect(badLeaderboard.code).toBe(2);
    expect(badLeaderboard.stderr).toMatch(/--leaderboard must be one of tournament, baseline/);
    const modelsWithoutReference = await sibyl(
      [...questions, "--reference-models", "models.json"],
      apiKey,
      out,
    );
    expect(modelsWithoutReference.code).toBe(2);
    expect(modelsWithoutReference.stderr).toMatch(
      /--reference-models and --leaderboard need --reference DIR/,
    );
    const wrongKey = await sibyl(
      [
        "eval",
        "run",
        "--questions",
        fixture("questions.jsonl"),
        "--model",
        "sibyl-baseline",
        "--base-url",
        server.url,
        "--out",
        out,
      ],
      "sk-wrong",
      out,
    );
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.stderr).toMatch(/401/);
  });

  it("says so and exits 1 when the balance runs out", async () => {
    const broke = await server.client("0");
    const out = path.join(tempDir(), "broke");
    const run = await evalRun(
      {
        questions: fixture("questions.jsonl"),
        models: ["fake-forecaster"],
        baseUrl: server.url,
        out,
      },
      broke.org.apiKey,
    );
    // The batch is refused when it is created: no line of it could be held.
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /refused for lack of credits \(402: Insufficient credits for this batch/,
    );
    expect(run.stderr).toMatch(/sibyl credits add .* run the same command again: it resumes/);
  });
});
