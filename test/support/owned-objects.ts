import { summaryWithForecasts, uploadEvaluationFile } from "./evaluation-uploads.js";
import type { TestOrg, TestServer } from "./server.js";

/** One valid batch input line for the built-in model. */
export const BATCH_INPUT_LINE = JSON.stringify({
  custom_id: "q1",
  method: "POST",
  url: "/v1/chat/completions",
  body: {
    model: "sibyl-baseline",
    messages: [{ role: "user", content: "Will it rain in Paris tomorrow?" }],
  },
});

/** The multipart form of a batch input upload, as the openai SDK sends it. */
export function batchUploadForm(content = `${BATCH_INPUT_LINE}\n`): FormData {
  const form = new FormData();
  form.append("purpose", "batch");
  form.append("file", new Blob([content]), "input.jsonl");
  return form;
}

async function postAs<T>(server: TestServer, org: TestOrg, path: string, init: RequestInit) {
  const headers = new Headers(init.headers);
  headers.set("authorization", `Bearer ${org.apiKey}`);
  const response = await fetch(`${server.url}${path}`, { ...init, method: "POST", headers });
  if (response.status !== 200) {
    throw new Error(`POST ${path} answered ${response.status}: ${await response.text()}`);
  }
  return (await response.json()) as T;
}

/** Uploads a batch input file as `org`; returns its id. */
export async function uploadFileAs(server: TestServer, org: TestOrg): Promise<string> {
  const file = await postAs<{ id: string }>(server, org, "/v1/files", { body: batchUploadForm() });
  return file.id;
}

/** The body of a batch create for an input file. */
export const batchCreateBody = (inputFileId: string) => ({
  input_file_id: inputFileId,
  endpoint: "/v1/chat/completions",
  completion_window: "24h",
});

/** Creates a batch (left `validating` when no worker runs) as `org`; returns its id. */
export async function createBatchAs(server: TestServer, org: TestOrg): Promise<string> {
  const body = JSON.stringify(batchCreateBody(await uploadFileAs(server, org)));
  const batch = await postAs<{ id: string }>(server, org, "/v1/batches", {
    headers: { "content-type": "application/json" },
    body,
  });
  return batch.id;
}

/** Registers a binary question as `org`; returns its id. */
export async function createQuestionAs(
  server: TestServer,
  org: TestOrg,
  id: string,
): Promise<string> {
  const question = await postAs<{ id: string }>(server, org, "/v1/questions", {
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ id, text: "Will it rain in Paris tomorrow?", answer_type: "binary" }),
  });
  return question.id;
}

/** Forecasts a calibration needs, made once per organization. */
const FORECASTS_FOR_A_CALIBRATION = 30;
const recorded = new WeakMap<TestOrg, Promise<void>>();

/**
 * Resolved binary forecasts of the built-in model as `org`, as many as a calibration is fitted
 * on: each a chat completion naming its question, then the question's resolution.
 */
export function resolvedForecastsAs(server: TestServer, org: TestOrg): Promise<void> {
  const existing = recorded.get(org);
  if (existing) return existing;
  const json = { "content-type": "application/json" };
  const making = (async () => {
    for (let index = 0; index < FORECASTS_FOR_A_CALIBRATION; index++) {
      const id = `calibration-${index}`;
      await postAs(server, org, "/v1/chat/completions", {
        headers: json,
        body: JSON.stringify({
          model: "sibyl-baseline",
          messages: [{ role: "user", content: `Will event ${index} happen?` }],
          answer_type: "binary",
          question_id: id,
          prediction_date: "2025-01-01",
        }),
      });
      await postAs(server, org, `/v1/questions/${id}/resolution`, {
        headers: json,
        body: JSON.stringify({ outcome: index % 3 === 0 ? 1 : 0, resolved_at: "2025-03-01" }),
      });
    }
  })();
  recorded.set(org, making);
  return making;
}

/** Fits a calibration of the built-in model as `org`; returns its id. */
export async function createCalibrationAs(server: TestServer, org: TestOrg): Promise<string> {
  await resolvedForecastsAs(server, org);
  const calibration = await postAs<{ id: string }>(server, org, "/v1/calibrations", {
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "sibyl-baseline" }),
  });
  return calibration.id;
}

/**
 * Keeps a backtest summary of the built-in model as `org`, with as many resolved binary forecasts
 * as a calibration is fitted on; returns its file id.
 */
export function keptEvaluationAs(server: TestServer, org: TestOrg): Promise<string> {
  const forecasts = Array.from({ length: FORECASTS_FOR_A_CALIBRATION }, (_, index) => ({
    probability: 0.2 + (index % 5) * 0.15,
    outcome: index % 3 === 0 ? 1 : 0,
  }));
  const summary = summaryWithForecasts("sibyl-baseline", forecasts);
  return uploadEvaluationFile(server.url, org, JSON.stringify(summary), "summary.json");
}
