// `sibyl eval run` then `sibyl eval report --reference DIR`, end to end, on a real ForecastBench
// round: models that answer each question of the 2024-07-21 human set as two real
// superforecasters did (fixtures/forecastbench-real-2024-07-21/input), refusing where they gave no
// forecast, must get in summary.json the figures ForecastBench's own code
// (forecastingresearch/forecastbench at 05f612ecba72d1318a95fb9fc0e6186fbf1f0a81) computed from
// their forecasts (expected.json): for the one who answered everything, the Brier,
// difficulty-adjusted Brier and Brier Index of its processed file; for the one who left 41% of the
// rows blank, the imputed shares `_impute.py` gave and the 5% verdict. The fixture's README says how
// expected.json was made.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BatchServer, startBatchServer } from "../batches/support/batch-server.js";
import { evalRun, readSummary, sibyl, tempDir } from "./support/backtest-cli.js";
import { type ForecasterUpstream, startForecasterUpstream } from "./support/forecaster-upstream.js";

const FIXTURE = path.join(import.meta.dirname, "fixtures", "forecastbench-real-2024-07-21");
const DUE_DATE = "2024-07-21";

interface Question {
  id: string;
  source: string;
  question: string;
  /** "N/A" for markets; the dates as a list, or as the list's text in some sets. */
  resolution_dates: string | string[];
}

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, "utf8")) as T;

const questions = readJson<{ questions: Question[] }>(
  path.join(FIXTURE, "run", "2024-07-21-human.json"),
).questions;
const expected = readJson<{
  imputation: Record<string, { overall_pct: number; market_pct: number; dataset_pct: number }>;
  plain: Record<string, { dataset: number; market: number; overall: number }>;
  leaderboards: Record<string, { models: Record<string, Record<string, number>> }>;
}>(path.join(FIXTURE, "expected.json"));

/** Each question text as asked: dataset questions once per resolution date, dates filled in. */
const asked = questions.flatMap((question) => {
  const dates =
    question.resolution_dates === "N/A"
      ? [null]
      : (String(question.resolution_dates).match(/\d{4}-\d{2}-\d{2}/g) ?? []);
  return dates.map((date) => ({
    text: question.question
      .replaceAll("{forecast_due_date}", DUE_DATE)
      .replaceAll("{resolution_date}", date ?? "{resolution_date}"),
    key: `${question.source}|${question.id}|${date ?? ""}`,
  }));
});

/** A model that answers as one superforecaster of input/ did, and what it could not answer. */
function superforecaster(userId: string) {
  const file = path.join(FIXTURE, "input", `2024-07-21.superforecaster-${userId}.json`);
  const { forecasts } = readJson<{
    forecasts: { id: string; source: string; forecast: number; resolution_date: string | null }[];
  }>(file);
  const forecastOf = new Map(
    forecasts.map((row) => [`${row.source}|${row.id}|${row.resolution_date ?? ""}`, row.forecast]),
  );
  const unmatched: string[] = [];
  const notForecast = new Set<string>();
  /** The forecast of the question in the prompt, as a percentage; a refusal where it has none. */
  const answer = (prompt: string): string => {
    const found = asked
      .filter((entry) => prompt.includes(entry.text))
      .sort((a, b) => b.text.length - a.text.length)[0];
    if (found === undefined) {
      // Re-asks for a readable answer repeat no question text.
      if (!prompt.startsWith("Your final answer could not be read")) unmatched.push(prompt);
      return "I cannot say.";
    }
    const forecast = forecastOf.get(found.key);
    if (forecast === undefined) {
      notForecast.add(found.key);
      return "I cannot say.";
    }
    return `Weighing the evidence.\nProbability: ${Number((forecast * 100).toFixed(6))}%`;
  };
  return { answer, unmatched, notForecast };
}

/** Answered every question ForecastBench resolved: on its leaderboards. */
const complete = superforecaster("SPqHtpfr8B");
const COMPLETE = "Superforecaster SPqHtpfr8B|superforecaster-SPqHtpfr8B";
/** Left 41% of the rows without a forecast: ForecastBench drops its file. */
const sparse = superforecaster("SUpgMvejGk");
const SPARSE = "Superforecaster SUpgMvejGk|superforecaster-SUpgMvejGk";

describe("sibyl eval on a real ForecastBench round, against ForecastBench's own figures", () => {
  let upstreams: ForecasterUpstream[];
  let server: BatchServer;
  let apiKey: string;

  beforeAll(async () => {
    upstreams = [
      await startForecasterUpstream(complete.answer),
      await startForecasterUpstream(sparse.answer),
    ];
    const model = (id: string, upstream: ForecasterUpstream | undefined) => ({
      id,
      provider: "openai",
      base_url: upstream?.url,
      pricing: { prompt: "0.000001", completion: "0.000002" },
    });
    server = await startBatchServer({
      config: {
        models: [
          model("superforecaster", upstreams[0]),
          model("sparse-superforecaster", upstreams[1]),
        ],
      },
    });
    ({
      org: { apiKey },
    } = await server.client("100"));
  });
  afterAll(async () => {
    await server.close();
    for (const upstream of upstreams) await upstream.close();
  });

  it("reports ForecastBench's Brier, difficulty-adjusted Brier, Brier Index and imputation", async () => {
    const out = path.join(tempDir(), "fb-2024-07-21");
    const run = await evalRun(
      {
        questions: path.join(FIXTURE, "run", "2024-07-21-human.json"),
        resolutions: path.join(FIXTURE, "run", "2024-07-21_resolution_set.json"),
        models: ["superforecaster", "sparse-superforecaster"],
        baseUrl: server.url,
        out,
        flags: ["--no-upload"],
      },
      apiKey,
    );
    expect(run.code).toBe(0);
    expect(complete.unmatched).toEqual([]);
    expect(sparse.unmatched).toEqual([]);
    // The superforecaster skipped 11 INFER questions, none of them in the resolution set:
    // ForecastBench's processed file has no row for them, and Sibyl counts none of them as imputed.
    expect(complete.notForecast.size).toBe(11);
    expect([...complete.notForecast].every((key) => key.startsWith("infer|"))).toBe(true);

    const report = await sibyl(
      ["eval", "report", "--out", out, "--reference", path.join(FIXTURE, "reference")],
      apiKey,
      out,
    );
    // Only the sparse one is warned about, with the shares _impute.py's output gives.
    expect(report.stderr.split("\n")).toEqual([
      expect.stringMatching(
        /^eval: warning: sparse-superforecaster: 40\.771812% of its forecasts are imputed \(market 60%, dataset 38\.003839%\), over ForecastBench's 5%/,
      ),
    ]);
    expect(report.code).toBe(0);
    const summary = readSummary(out);
    const figures = summary.models.superforecaster?.forecastbench;
    const plain = expected.plain[COMPLETE];
    // summary.json keeps six decimals of a Brier score and four of a Brier Index.
    const near = (
      actual: number | null | undefined,
      wanted: number | undefined,
      digits: number,
    ) => {
      expect(wanted).toBeTypeOf("number");
      expect(Math.abs((actual ?? Number.NaN) - (wanted ?? Number.NaN))).toBeLessThanOrEqual(
        0.5 * 10 ** -digits + 1e-12,
      );
    };
    expect(figures?.dataset.n).toBe(521);
    expect(figures?.market.n).toBe(57);
    near(figures?.dataset.brier, plain?.dataset, 6);
    near(figures?.market.brier, plain?.market, 6);
    near(figures?.overall.brier, plain?.overall, 6);
    expect(figures?.imputation).toMatchObject({ overall_pct: 0, over_cutoff: false });

    // The tournament leaderboard (the default), where an external submission is listed. The
    // published files lack the Imputed Forecaster's market values, so market effects are fitted,
    // as expected.json's were.
    const theirs = expected.leaderboards.tournament?.models[COMPLETE];
    const adjusted = figures?.difficulty_adjusted;
    expect(adjusted?.without_reference).toBe(0);
    expect(adjusted?.market_method).toBe("two_way_fixed_effects");
    near(adjusted?.dataset, theirs?.two_way_fixed_effects_dataset, 6);
    near(adjusted?.market, theirs?.two_way_fixed_effects_market, 6);
    near(adjusted?.overall, theirs?.two_way_fixed_effects_overall, 6);
    near(adjusted?.brier_index.overall, theirs?.brier_index_overall, 4);
    near(adjusted?.brier_index.dataset, theirs?.brier_index_dataset, 4);
    near(adjusted?.brier_index.market, theirs?.brier_index_market, 4);

    // The sparse superforecaster's refusals are imputed where ForecastBench's _impute.py imputed,
    // in the same shares, and the run is flagged as ForecastBench would drop it.
    const sparseFigures = summary.models["sparse-superforecaster"]?.forecastbench;
    const shares = expected.imputation[SPARSE];
    near(sparseFigures?.imputation.overall_pct, shares?.overall_pct, 6);
    near(sparseFigures?.imputation.market_pct, shares?.market_pct, 6);
    near(sparseFigures?.imputation.dataset_pct, shares?.dataset_pct, 6);
    expect(sparseFigures?.imputation.over_cutoff).toBe(true);
    expect(summary.imputation_rule.over_cutoff).toEqual(["sparse-superforecaster"]);
  }, 120_000);
});
