import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  evaluationForm,
  evaluationSummary,
  uploadEvaluationFile,
} from "../support/evaluation-uploads.js";
import { expectErrorResponse, request } from "../support/http.js";
import { batchUploadForm } from "../support/owned-objects.js";
import { startTestServer, type TestOrg, type TestServer } from "../support/server.js";

let server: TestServer;
let org: TestOrg;

beforeAll(async () => {
  server = await startTestServer();
  org = await server.createOrg("1");
});
afterAll(async () => {
  await server.close();
});

const upload = (form: FormData, apiKey = org.apiKey) =>
  request(server.url, "/v1/files", { method: "POST", apiKey, body: form });

const summaryForm = (summary: unknown) => evaluationForm(JSON.stringify(summary), "summary.json");

describe("files with purpose evaluation", () => {
  it("keeps a backtest's report, plot and summary, listed by purpose and served as downloads", async () => {
    const report = await uploadEvaluationFile(
      server.url,
      org,
      "<html><script>alert(1)</script></html>",
      "report.html",
    );
    const plot = await uploadEvaluationFile(server.url, org, "<svg></svg>", "calibration.svg");
    const uploaded = await upload(
      summaryForm(evaluationSummary({ report_html: report, calibration_svg: plot })),
    );
    expect(uploaded.status).toBe(200);
    expect(uploaded.body).toMatchObject({
      object: "file",
      purpose: "evaluation",
      filename: "summary.json",
      status: "processed",
      expires_at: null,
    });

    const listed = await request(server.url, "/v1/files?purpose=evaluation", {
      apiKey: org.apiKey,
    });
    const files = (listed.body as { data: { id: string; filename: string }[] }).data;
    expect(files.map((file) => file.filename)).toEqual([
      "summary.json",
      "calibration.svg",
      "report.html",
    ]);

    const content = await fetch(`${server.url}/v1/files/${report}/content`, {
      headers: { authorization: `Bearer ${org.apiKey}` },
    });
    expect(content.headers.get("content-type")).toBe("application/octet-stream");
    expect(content.headers.get("content-disposition")).toBe(
      "attachment; filename*=UTF-8''report.html",
    );
    expect(content.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await content.text()).toContain("<script>");
  });

  it("refuses what is not a backtest's output with a clear 400", async () => {
    const batchFile = await upload(batchUploadForm());
    const batchFileId = (batchFile.body as { id: string }).id;
    const stranger = await server.createOrg("1");
    const theirs = await uploadEvaluationFile(server.url, stranger, "<p>x</p>", "report.html");
    const cases: [FormData, string, string][] = [
      [evaluationForm("notes", "notes.txt"), "invalid_file_format", "summary (.json)"],
      [evaluationForm("{", "summary.json"), "invalid_evaluation_summary", "not valid JSON"],
      [summaryForm({ models: {} }), "invalid_evaluation_summary", "question_set"],
      [
        summaryForm({ ...evaluationSummary(), models: { m: { n: -1, brier: 0, log_score: 0 } } }),
        "invalid_evaluation_summary",
        "/models/m/n",
      ],
      [
        summaryForm({ ...evaluationSummary(), models: { m: { n: 1, log_score: 0 } } }),
        "invalid_evaluation_summary",
        "/models/m has no pooled_brier",
      ],
      [summaryForm(evaluationSummary({ report_html: theirs })), "invalid_report_file", theirs],
      [
        summaryForm(evaluationSummary({ report_html: "file-000000000000000000000000" })),
        "invalid_report_file",
        "file-0",
      ],
      [summaryForm(evaluationSummary({ report_html: batchFileId })), "invalid_report_file", "not"],
    ];
    for (const [form, code, words] of cases) {
      const response = await upload(form);
      expectErrorResponse(response, { status: 400, code, param: "file" });
      expect((response.body as { error: { message: string } }).error.message).toContain(words);
    }
    // Nothing refused was kept.
    const kept = await request(server.url, "/v1/files?purpose=evaluation", { apiKey: org.apiKey });
    expect((kept.body as { data: unknown[] }).data).toHaveLength(3);
  });

  it("refuses a summary over 4 MB (413)", async () => {
    const big = JSON.stringify({ ...evaluationSummary(), padding: "x".repeat(4 * 1024 * 1024) });
    const tooLarge = await upload(evaluationForm(big, "summary.json"));
    expectErrorResponse(tooLarge, { status: 413, code: "file_too_large" });
  });
});

describe("the pooled Brier's name in a summary", () => {
  it("accepts pooled_brier, and brier from summaries written before it was renamed", async () => {
    const scores = { n: 10, log_score: -Math.LN2, parse_rate: 1 };
    for (const pooled of [{ pooled_brier: 0.25 }, { brier: 0.25 }]) {
      const summary = {
        ...evaluationSummary(),
        models: { "sibyl-baseline": { ...scores, ...pooled } },
      };
      const uploaded = await upload(summaryForm(summary));
      expect(uploaded.status).toBe(200);
    }
  });
});
