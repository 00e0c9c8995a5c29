import { readFile } from "node:fs/promises";
import path from "node:path";
import type { ApiClient } from "../client/api-client.js";
import { BacktestError } from "../errors.js";
import type { Summary } from "../summary.js";

/**
 * Keeps the backtest's report on the server, for its dashboard: report.html and calibration.svg
 * first, then the summary, which names them in `report_files`. Returns the summary's file id, or
 * null (after a warning) when the server will not keep it: an endpoint without Sibyl's
 * `evaluation` purpose, say. The backtest itself has succeeded either way.
 */
export async function uploadReport(
  client: ApiClient,
  outDir: string,
  summary: Summary,
  log: (line: string) => void,
): Promise<string | null> {
  try {
    const upload = async (name: string) =>
      (await client.uploadEvaluationFile(await readFile(path.join(outDir, name), "utf8"), name)).id;
    const reportFiles = {
      report_html: await upload("report.html"),
      calibration_svg: await upload("calibration.svg"),
    };
    const uploaded = await client.uploadEvaluationFile(
      summaryToKeep(summary, reportFiles, log),
      "summary.json",
    );
    return uploaded.id;
  } catch (error) {
    if (!(error instanceof BacktestError)) throw error;
    log(
      `eval: warning: the report was not kept on the server (${error.message}); it is in ${outDir}. --no-upload skips this step.`,
    );
    return null;
  }
}

/** The server keeps summaries up to 4 MB; report.html always holds the whole question table. */
const MAX_SUMMARY_BYTES = 4 * 1024 * 1024;

function summaryToKeep(
  summary: Summary,
  reportFiles: Record<string, string>,
  log: (line: string) => void,
): string {
  const whole = `${JSON.stringify({ ...summary, report_files: reportFiles }, null, 2)}\n`;
  if (Buffer.byteLength(whole) <= MAX_SUMMARY_BYTES) return whole;
  const brief = {
    ...summary,
    questions: summary.questions.map((row) => ({
      ...row,
      forecasts: Object.fromEntries(
        Object.entries(row.forecasts).map(([model, f]) => [
          model,
          { ...f, reasoning: null, citations: [] },
        ]),
      ),
    })),
    report_files: reportFiles,
  };
  const text = `${JSON.stringify(brief)}\n`;
  if (Buffer.byteLength(text) <= MAX_SUMMARY_BYTES) {
    log(
      "eval: the summary kept on the server leaves out reasoning and sources (over 4 MB); report.html has them.",
    );
    return text;
  }
  log(
    "eval: the summary kept on the server leaves out the question table (over 4 MB); report.html has it.",
  );
  return `${JSON.stringify({ ...summary, questions: [], report_files: reportFiles })}\n`;
}
