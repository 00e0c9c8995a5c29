import path from "node:path";
import { evaluate } from "../evaluate.js";
import { loadReference, type OutcomeLookup, type Reference } from "../forecastbench/reference.js";
import { loadReferenceModels, type ReferenceOptions } from "../forecastbench/reference-models.js";
import { heldOutCalibration } from "../held-out-calibration.js";
import {
  auditCitations,
  type CutoffWarning,
  type RequestAudit,
  requestsPass,
} from "../leak-check.js";
import { calibrationSvg } from "../outputs/calibration-svg.js";
import { forecastRows, submissionFile } from "../outputs/forecast-rows.js";
import { reportHtml } from "../outputs/report-html.js";
import { itemKey } from "../question-sets/forecastbench.js";
import { buildRecords, type ForecastRecord } from "../results/records.js";
import { parseResults } from "../results/replies.js";
import { buildSummary, type RunInfo, type Summary } from "../summary.js";
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
  reference: ReferenceOptions | null;
  endpoint: string;
  state: RunState;
  spentUsd: number | null;
  requests: RequestAudit;
  expectedRequestLines: number;
  cutoffWarnings: CutoffWarning[];
  /** --calibrate: the seed of the split into a fitting and a held-out half; null without. */
  calibrateSeed: number | null;
}

/**
 * Scores the saved results and writes summary.json, forecasts.jsonl, a ForecastBench
 * submission per model, calibration.svg and report.html into --out. Reads only local files.
 */
export async function writeOutputs(input: OutputInput): Promise<Summary> {
  const { set } = input;
  const records = await readRecords(input);
  const options = input.reference;
  const reference = options === null ? null : await readReference(options, set);
  const evaluation = evaluate(
    set,
    records,
    input.aggregate,
    input.samples,
    reference,
    options?.leaderboard,
  );
  const allRecords = [...records.values()].flat();
  const summary = buildSummary({
    set,
    evaluation,
    run: runInfo(input),
    requests: input.requests,
    requestsOk: requestsPass(input.requests, input.expectedRequestLines),
    cutoffWarnings: input.cutoffWarnings,
    research: input.research ? auditCitations(allRecords) : null,
  });
  if (input.calibrateSeed !== null) {
    summary.held_out_calibration = heldOutCalibration(set, records, input.calibrateSeed);
  }
  const plotted = Object.fromEntries(
    Object.entries(evaluation.calibration).filter(
      ([name, bins]) => name !== "always_0.5" && bins.length > 0,
    ),
  );
  const svg = await calibrationSvg(plotted, `Calibration: ${set.name}`);
  const file = (name: string) => path.join(input.outDir, name);
  await Promise.all([
    writeFileAtomic(file("summary.json"), `${JSON.stringify(summary, null, 2)}\n`),
    writeFileAtomic(file("forecasts.jsonl"), forecastRows(allRecords, set.resolutions)),
    writeFileAtomic(file("calibration.svg"), svg),
    writeFileAtomic(file("report.html"), reportHtml(summary, svg)),
    ...writeSubmissions(input, records),
  ]);
  return summary;
}

/** Every model's forecasts, read from its saved batch results. */
async function readRecords(input: OutputInput): Promise<Map<string, ForecastRecord[]>> {
  const records = new Map<string, ForecastRecord[]>();
  for (const model of input.models) {
    const replies = parseResults(...(await readModelResults(input.outDir, model)));
    records.set(
      model,
      buildRecords(input.set.items, replies, model, input.samples, input.aggregate),
    );
  }
  return records;
}

async function readReference(options: ReferenceOptions, set: QuestionSet): Promise<Reference> {
  return loadReference(
    options.dir,
    outcomeLookup(set),
    options.modelsFile === null ? new Map() : await loadReferenceModels(options.modelsFile),
  );
}

function runInfo(input: OutputInput): RunInfo {
  return {
    run_id: input.state.run_id,
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
  };
}

/** A ForecastBench submission file per model that has one, in forecastbench/. */
function writeSubmissions(
  input: OutputInput,
  records: Map<string, ForecastRecord[]>,
): Promise<void>[] {
  return [...records].flatMap(([model, list]) => {
    const submission = submissionFile(list, {
      model,
      organization: input.organization,
      modelOrganization: input.state.model_organizations?.[model] ?? null,
    });
    if (submission === null) return [];
    const name = `${submission.forecast_due_date}.${safeName(input.organization)}.${safeName(model)}.json`;
    return [
      writeFileAtomic(
        path.join(input.outDir, "forecastbench", name),
        `${JSON.stringify(submission, null, 2)}\n`,
      ),
    ];
  });
}

/** Outcomes of the run's own round, for reference rows that carry none. */
function outcomeLookup(set: QuestionSet): OutcomeLookup {
  const byKey = new Map(
    set.resolutions.map((r) => [`${r.itemKey}|${r.resolutionDate ?? ""}`, r] as const),
  );
  const items = new Map(set.items.map((item) => [item.key, item]));
  return (dueDate, source, id, resolutionDate) => {
    const key = itemKey(source, id, resolutionDate);
    const item = items.get(key);
    if (!item || item.dueDate.slice(0, 10) !== dueDate.slice(0, 10)) return null;
    const found =
      resolutionDate === null
        ? set.resolutions.find((r) => r.itemKey === key)
        : byKey.get(`${key}|${resolutionDate}`);
    if (found?.outcome.type !== "binary") return null;
    return { outcome: found.outcome.value, resolved: found.resolved };
  };
}
