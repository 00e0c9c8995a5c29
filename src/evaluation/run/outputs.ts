import path from "node:path";
import { evaluate } from "../evaluate.js";
import {
  auditCitations,
  type CutoffWarning,
  type RequestAudit,
  requestsPass,
} from "../leak-check.js";
import { calibrationSvg } from "../outputs/calibration-svg.js";
import { forecastRows, submissionFile } from "../outputs/forecast-rows.js";
import { reportHtml } from "../outputs/report-html.js";
import { buildRecords, type ForecastRecord } from "../results/records.js";
import { parseResults } from "../results/replies.js";
import { buildSummary, type Summary } from "../summary.js";
import type { Aggregate, QuestionSet } from "../types.js";
import { writeFileAtomic } from "./atomic-file.js";
import { readModelResults, safeName } from "./model-batch.js";
import type { RunState } from "./state.js";

export interface OutputInput {
  set: QuestionSet;
  outDir: string;
  models: string[];
  samples: number;
  aggregate: Aggregate;
  research: boolean;
  organization: string;
  endpoint: string;
  state: RunState;
  spentUsd: number | null;
  requests: RequestAudit;
  expectedRequestLines: number;
  cutoffWarnings: CutoffWarning[];
}

/**
 * Scores the saved results and writes summary.json, forecasts.jsonl, a ForecastBench
 * submission per model, calibration.svg and report.html into --out. Reads only local files.
 */
export async function writeOutputs(input: OutputInput): Promise<Summary> {
  const { set, outDir } = input;
  const records = new Map<string, ForecastRecord[]>();
  for (const model of input.models) {
    const replies = parseResults(...(await readModelResults(outDir, model)));
    records.set(model, buildRecords(set.items, replies, model, input.samples, input.aggregate));
  }
  const evaluation = evaluate(set, records, input.aggregate, input.samples);
  const allRecords = [...records.values()].flat();
  const summary = buildSummary({
    set,
    evaluation,
    run: {
      endpoint: input.endpoint,
      models: input.models,
      samples: input.samples,
      aggregate: input.aggregate,
      research: input.research,
      batches: Object.fromEntries(
        input.models.map((model) => {
          const entry = input.state.models[model];
          return [model, { batch_id: entry?.batch_id ?? null, status: entry?.status ?? null }];
        }),
      ),
      spent_usd: input.spentUsd,
    },
    requests: input.requests,
    requestsOk: requestsPass(input.requests, input.expectedRequestLines),
    cutoffWarnings: input.cutoffWarnings,
    research: input.research ? auditCitations(allRecords) : null,
  });

  const plotted = Object.fromEntries(
    Object.entries(evaluation.calibration).filter(
      ([name, bins]) => name !== "always_0.5" && bins.length > 0,
    ),
  );
  const svg = await calibrationSvg(plotted, `Calibration: ${set.name}`);
  const writes = [
    writeFileAtomic(path.join(outDir, "summary.json"), `${JSON.stringify(summary, null, 2)}\n`),
    writeFileAtomic(
      path.join(outDir, "forecasts.jsonl"),
      forecastRows(allRecords, set.resolutions),
    ),
    writeFileAtomic(path.join(outDir, "calibration.svg"), svg),
    writeFileAtomic(path.join(outDir, "report.html"), reportHtml(summary, svg)),
  ];
  for (const [model, list] of records) {
    const submission = submissionFile(list, model, input.organization);
    if (submission === null) continue;
    const name = `${submission.forecast_due_date}.${safeName(input.organization)}.${safeName(model)}.json`;
    writes.push(
      writeFileAtomic(
        path.join(outDir, "forecastbench", name),
        `${JSON.stringify(submission, null, 2)}\n`,
      ),
    );
  }
  await Promise.all(writes);
  return summary;
}
