import { readFile } from "node:fs/promises";
import path from "node:path";
import { BacktestError } from "../errors.js";
import type { ReferenceOptions } from "../forecastbench/reference-models.js";
import { auditRequests, type CutoffWarning, emptyRequestAudit } from "../leak-check.js";
import { loadQuestionSet } from "../question-sets/load.js";
import type { Summary } from "../summary.js";
import type { Aggregate } from "../types.js";
import { modelFiles } from "./model-batch.js";
import { writeOutputs } from "./outputs.js";
import { readState } from "./state.js";

export interface ReportOptions {
  outDir: string;
  /** A newer resolution set than the run used (ForecastBench publishes them as questions resolve). */
  resolutionsFile: string | null;
  aggregate: Aggregate;
  organization: string;
  /** ForecastBench forecast files, for the difficulty-adjusted figures. */
  reference: ReferenceOptions | null;
  /** Fit a calibration map on half the questions (split by the run's seed), score the rest. */
  calibrate?: boolean;
}

/**
 * `sibyl eval report`: scores a finished run again from the files in --out, without the
 * network: with another aggregate, or against a newer resolution set.
 */
export async function reportAgain(options: ReportOptions): Promise<Summary> {
  const outDir = path.resolve(options.outDir);
  const state = await readState(outDir);
  if (state === null) throw new BacktestError(`${outDir} holds no backtest (no state.json)`);
  const unfinished = state.options.models.filter((model) => !state.models[model]?.downloaded);
  if (unfinished.length > 0) {
    throw new BacktestError(
      `the batches of ${unfinished.join(", ")} have not finished: run the same \`sibyl eval run\` again first`,
    );
  }
  const set = await loadQuestionSet(
    state.questions_file,
    options.resolutionsFile ?? state.resolutions_file,
    state.options.limit,
    state.options.seed ?? 0,
  );
  // The saved inputs are what was uploaded (their hashes are in the state).
  const requests = emptyRequestAudit();
  const byKey = new Map(set.items.map((item) => [item.key, item]));
  for (const model of state.options.models) {
    auditRequests(requests, await readFile(modelFiles(outDir, model).input, "utf8"), byKey);
  }
  return writeOutputs({
    set,
    outDir,
    models: state.options.models,
    samples: state.options.samples,
    aggregate: options.aggregate,
    research: state.options.research,
    organization: options.organization,
    reference: options.reference,
    endpoint: state.endpoint,
    state,
    spentUsd: null,
    requests,
    expectedRequestLines: set.items.length * state.options.models.length,
    cutoffWarnings: await previousCutoffWarnings(outDir),
    calibrateSeed: options.calibrate ? (state.options.seed ?? 0) : null,
  });
}

async function previousCutoffWarnings(outDir: string): Promise<CutoffWarning[]> {
  try {
    const summary = JSON.parse(
      await readFile(path.join(outDir, "summary.json"), "utf8"),
    ) as Summary;
    return summary.leak_check?.knowledge_cutoff_warnings ?? [];
  } catch {
    return [];
  }
}
