// POST /v1/calibrations with `evaluation`: a map fitted on a backtest `sibyl eval run` kept on the
// server, run end to end against scripted models, on both databases.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BatchServer, startBatchServer } from "../batches/support/batch-server.js";
import { evalRun, readSummary, tempDir } from "../evaluation/support/backtest-cli.js";
import {
  type ForecasterUpstream,
  startForecasterUpstream,
} from "../evaluation/support/forecaster-upstream.js";
import { createKey } from "../organization/support/api.js";
import {
  evaluationSummary,
  summaryWithForecasts,
  uploadEvaluationFile,
} from "../support/evaluation-uploads.js";
import { expectErrorResponse } from "../support/http.js";
import { uploadFileAs } from "../support/owned-objects.js";
import type { TestOrg } from "../support/server.js";
import { DATABASES, suiteDatabase } from "./support/databases.js";
import { overConfident, scriptedForecasts, wellCalibrated } from "./support/scripted-forecasts.js";
import { call, ok } from "./support/track-api.js";

const OVER_CONFIDENT = "over-confident";
const CALIBRATED = "calibrated";
/** Served, but not a model of the backtest. */
const ABSENT = "absent";
/** The over-confident and the calibrated model's forecasts on the same questions. */
const QUESTIONS = 150;
/** test/track/calibrations.test.ts fits on these seeded forecasts, recorded one by one. */
const SEED = 2;

const over = scriptedForecasts(QUESTIONS, SEED, overConfident);
const well = scriptedForecasts(QUESTIONS, SEED, wellCalibrated);

/** A model that answers question `q-i` of the set with forecast i of its script. */
function scripted(forecasts: { probability: number }[]) {
  return (prompt: string) => {
    const index = Number(/\[q-(\d+)\]/.exec(prompt)?.[1]);
    const probability = forecasts[index]?.probability;
    if (probability === undefined) throw new Error(`no scripted question in: ${prompt}`);
    return `Weighing it up.\nProbability: ${Math.round(probability * 1000) / 10}%`;
  };
}

/** The backtest's questions in Sibyl's JSON Lines, with the outcomes the scripts were drawn with. */
function questionFile(directory: string): string {
  const file = path.join(directory, "questions.jsonl");
  const lines = over.map((forecast, index) =>
    JSON.stringify({
      id: `q-${index}`,
      question: `Will event [q-${index}] happen by 2025-03-02?`,
      answer_type: "binary",
      prediction_date: "2025-03-01",
      resolution_date: "2025-03-02",
      outcome: forecast.outcome,
    }),
  );
  writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

interface CalibrationBody {
  id: string;
  model: string;
  n: number;
  brier_before: number;
  improved: boolean;
  source: string;
  evaluation: string | null;
}

describe.each(DATABASES)("calibrations fitted on a kept backtest, on %s", (databaseName) => {
  const databaseUrl = suiteDatabase(databaseName);
  let upstreams: ForecasterUpstream[];
  let server: BatchServer;
  let org: TestOrg;
  let other: TestOrg;
  let evaluationId: string;
  let reportFileId: string;
  let pooledBrier: Record<string, number | null | undefined>;

  const requestFit = (apiKey: string, body: Record<string, unknown>) =>
    call(server.url, apiKey, "POST", "/v1/calibrations", body);

  beforeAll(async () => {
    upstreams = [
      await startForecasterUpstream(scripted(over)),
      await startForecasterUpstream(scripted(well)),
    ];
    const model = (id: string, upstream: ForecasterUpstream | undefined) => ({
      id,
      provider: "openai",
      base_url: upstream?.url,
      pricing: { prompt: "0.000001", completion: "0.000002" },
    });
    const url = databaseUrl();
    server = await startBatchServer({
      ...(url ? { databaseUrl: url } : {}),
      config: {
        models: [
          model(OVER_CONFIDENT, upstreams[0]),
          model(CALIBRATED, upstreams[1]),
          { id: ABSENT, provider: "baseline" },
        ],
      },
    });
    ({ org } = await server.client("100"));
    ({ org: other } = await server.client("1"));
    const out = path.join(tempDir(), "kept");
    const run = await evalRun(
      {
        questions: questionFile(tempDir()),
        models: [OVER_CONFIDENT, CALIBRATED],
        baseUrl: server.url,
        out,
      },
      org.apiKey,
    );
    expect(run.code, run.stderr).toBe(0);
    evaluationId = (JSON.parse(run.stdout) as { evaluation_file_id: string }).evaluation_file_id;
    const summary = readSummary(out) as ReturnType<typeof readSummary> & {
      report_files?: { report_html: string };
    };
    pooledBrier = Object.fromEntries(
      Object.entries(summary.models).map(([name, scores]) => [name, scores.pooled_brier]),
    );
    const kept = await ok(
      call(server.url, org.apiKey, "GET", `/v1/files?purpose=evaluation&limit=10`),
    );
    const files = (kept.body as { data: { id: string; filename: string }[] }).data;
    reportFileId = files.find((file) => file.filename === "report.html")?.id ?? "";
    expect(reportFileId).toMatch(/^file-/);
  }, 240_000);

  afterAll(async () => {
    await server?.close();
    for (const upstream of upstreams ?? []) await upstream.close();
  });

  it("fits the over-confident model's map on the run's forecasts, finds it improves and applies it", async () => {
    const fitted = (
      await ok(requestFit(org.apiKey, { model: OVER_CONFIDENT, evaluation: evaluationId }))
    ).body as CalibrationBody;
    expect(fitted).toMatchObject({
      object: "calibration",
      model: OVER_CONFIDENT,
      n: QUESTIONS,
      folds: 5,
      improved: true,
      source: "evaluation",
      evaluation: evaluationId,
    });
    // The forecasts as given: the run's own Brier, kept to six decimals in summary.json.
    expect(fitted.brier_before).toBeCloseTo(pooledBrier[OVER_CONFIDENT] ?? Number.NaN, 5);
    expect(
      (await ok(call(server.url, org.apiKey, "GET", `/v1/calibrations/${fitted.id}`))).body,
    ).toEqual(fitted);

    // The map serves requests as one fitted on recorded forecasts does.
    const reply = await ok(
      call(server.url, org.apiKey, "POST", "/v1/chat/completions", {
        model: OVER_CONFIDENT,
        messages: [{ role: "user", content: "Will event [q-0] happen by 2025-03-02?" }],
        answer_type: "binary",
        calibration: "auto",
      }),
    );
    const choice = (
      reply.body as {
        choices: {
          forecast: { calibration: { id: string; applied: boolean; raw_answer: number } };
        }[];
      }
    ).choices[0];
    expect(choice?.forecast.calibration).toMatchObject({
      id: fitted.id,
      applied: true,
      raw_answer: over[0]?.probability,
    });
  });

  it("leaves the calibrated model's map unapplied; recorded-forecast fits say their source", async () => {
    const kept = (await ok(requestFit(org.apiKey, { model: CALIBRATED, evaluation: evaluationId })))
      .body as CalibrationBody;
    expect(kept).toMatchObject({ n: QUESTIONS, improved: false, source: "evaluation" });
    expect(kept.brier_before).toBeCloseTo(pooledBrier[CALIBRATED] ?? Number.NaN, 5);
    // Nothing was recorded (the run named no question_id): the recorded path has no forecasts.
    const recorded = await requestFit(org.apiKey, { model: CALIBRATED });
    expectErrorResponse(recorded, { status: 422, code: "too_few_forecasts", param: "model" });
  });

  it("a model the run did not forecast with is a 400 naming the run's models", async () => {
    for (const model of [ABSENT, "no-such-model"]) {
      const response = await requestFit(org.apiKey, { model, evaluation: evaluationId });
      expectErrorResponse(response, {
        status: 400,
        code: "model_not_in_evaluation",
        param: "model",
      });
      expect(JSON.stringify(response.body)).toContain(`'${OVER_CONFIDENT}', '${CALIBRATED}'`);
    }
  });

  it("an unknown evaluation, another organization's, or a file that is no backtest summary is a 404", async () => {
    const notFound = { status: 404, code: "evaluation_not_found", param: "evaluation" };
    expectErrorResponse(
      await requestFit(other.apiKey, { model: OVER_CONFIDENT, evaluation: evaluationId }),
      notFound,
    );
    const unknown = `${evaluationId.slice(0, -8)}00000000`;
    expectErrorResponse(
      await requestFit(org.apiKey, { model: OVER_CONFIDENT, evaluation: unknown }),
      notFound,
    );
    expectErrorResponse(
      await requestFit(org.apiKey, { model: OVER_CONFIDENT, evaluation: reportFileId }),
      notFound,
    );
    const batchInput = await uploadFileAs(server, org);
    expectErrorResponse(
      await requestFit(org.apiKey, { model: OVER_CONFIDENT, evaluation: batchInput }),
      notFound,
    );
  });

  it("too few resolved binary forecasts in the run is the recorded path's 422", async () => {
    const few = summaryWithForecasts(
      OVER_CONFIDENT,
      over.slice(0, 29).map(({ probability, outcome }) => ({ probability, outcome })),
    );
    const fewId = await uploadEvaluationFile(server.url, org, JSON.stringify(few), "summary.json");
    const response = await requestFit(org.apiKey, { model: OVER_CONFIDENT, evaluation: fewId });
    expectErrorResponse(response, { status: 422, code: "too_few_forecasts", param: "model" });
    expect(JSON.stringify(response.body)).toContain("at least 30 resolved binary forecasts");
    expect(JSON.stringify(response.body)).toContain(`evaluation '${fewId}' has 29`);
  });

  it("a summary kept without a question table is a 400 that says so", async () => {
    const bare = evaluationSummary();
    const bareId = await uploadEvaluationFile(
      server.url,
      org,
      JSON.stringify(bare),
      "summary.json",
    );
    expectErrorResponse(
      await requestFit(org.apiKey, { model: "sibyl-baseline", evaluation: bareId }),
      {
        status: 400,
        code: "invalid_evaluation_summary",
        param: "evaluation",
      },
    );
  });

  it("needs an admin key", async () => {
    const bot = await createKey(server.url, org.apiKey, { scope: "inference" });
    expectErrorResponse(
      await requestFit(bot.value, { model: OVER_CONFIDENT, evaluation: evaluationId }),
      {
        status: 403,
        code: "insufficient_scope",
      },
    );
  });
});
