import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type BatchServer,
  batchRequest,
  chatLine,
  jsonl,
  readResults,
  startBatchServer,
  uploadBatchFile,
  waitForBatch,
} from "../batches/support/batch-server.js";
import { createCalibrationAs } from "../support/owned-objects.js";
import { DATABASES, suiteDatabase } from "./support/databases.js";
import { getQuestion } from "./support/track-api.js";

describe.each(DATABASES)("batch lines' forecasts on %s", (databaseName) => {
  const databaseUrl = suiteDatabase(databaseName);
  let server: BatchServer;

  beforeAll(async () => {
    const url = databaseUrl();
    server = await startBatchServer(url ? { databaseUrl: url } : {});
  });
  afterAll(async () => {
    await server?.close();
  });

  it("records each line's forecast with the line's output id, once", async () => {
    const { openai, org } = await server.client("5");
    const lines = [
      chatLine("a", "sibyl-baseline", { answer_type: "binary", question_id: "batch-q1" }),
      chatLine("b", "sibyl-baseline", { answer_type: "binary", question_id: "batch-q1" }),
      chatLine("c", "sibyl-baseline", {
        answer_type: "binary",
        question_id: "batch-q2",
        prediction_date: "2024-06-01",
      }),
      chatLine("d", "sibyl-baseline", { answer_type: "binary" }),
    ];
    const file = await uploadBatchFile(openai, jsonl(lines));
    const created = await openai.batches.create(batchRequest(file.id));
    const batch = await waitForBatch(openai, created.id);
    expect(batch.request_counts).toEqual({ total: 4, completed: 4, failed: 0 });
    const results = await readResults(openai, batch.output_file_id);
    const lineId = (customId: string) => results.find((r) => r.custom_id === customId)?.id;

    const first = await getQuestion(server.url, org.apiKey, "batch-q1");
    expect(first.forecasts.map((f) => f.request_id).sort()).toEqual(
      [lineId("a"), lineId("b")].sort(),
    );
    for (const forecast of first.forecasts) {
      expect(forecast).toMatchObject({
        model: "sibyl-baseline",
        answer_type: "binary",
        api_key_id: org.apiKeyId,
      });
      expect(forecast.answer).toBeTypeOf("number");
    }
    const second = await getQuestion(server.url, org.apiKey, "batch-q2");
    expect(second.forecasts).toHaveLength(1);
    expect(second.forecasts[0]?.prediction_date).toBe(Date.UTC(2024, 5, 1) / 1000);
  });

  it("applies a line's calibration, and fails a line naming an unknown one", async () => {
    const { openai, org } = await server.client("5");
    const calibrationId = await createCalibrationAs(server, org);
    const lines = [
      chatLine("named", "sibyl-baseline", { answer_type: "binary", calibration: calibrationId }),
      chatLine("auto", "sibyl-baseline", { answer_type: "binary", calibration: "auto" }),
      chatLine("unknown", "sibyl-baseline", {
        answer_type: "binary",
        calibration: "cal_unknown0000",
      }),
    ];
    const file = await uploadBatchFile(openai, jsonl(lines));
    const created = await openai.batches.create(batchRequest(file.id));
    const batch = await waitForBatch(openai, created.id);
    expect(batch.request_counts).toEqual({ total: 3, completed: 2, failed: 1 });
    const results = [
      ...(await readResults(openai, batch.output_file_id)),
      ...(await readResults(openai, batch.error_file_id)),
    ];
    const reportOf = (customId: string) => {
      const body = results.find((r) => r.custom_id === customId)?.response?.body as {
        choices: { forecast: { calibration: Record<string, unknown> } }[];
      };
      return body.choices[0]?.forecast.calibration;
    };
    expect(reportOf("named")?.id).toBe(calibrationId);
    expect(reportOf("auto")?.id).toBe(calibrationId);
    expect(reportOf("named")?.raw_answer).toBeTypeOf("number");
    const unknown = results.find((r) => r.custom_id === "unknown");
    expect(unknown?.response?.status_code).toBe(404);
    expect(JSON.stringify(unknown)).toContain("calibration_not_found");
  });

  it("refuses a line whose question_id is malformed when the batch is validated", async () => {
    const { openai } = await server.client("5");
    const file = await uploadBatchFile(
      openai,
      jsonl([chatLine("a", "sibyl-baseline", { answer_type: "binary", question_id: "" })]),
    );
    const created = await openai.batches.create(batchRequest(file.id));
    const batch = await waitForBatch(openai, created.id);
    expect(batch.status).toBe("failed");
    expect(JSON.stringify(batch.errors)).toContain("question_id");
  });
});
