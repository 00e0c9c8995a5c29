import { mkdir } from "node:fs/promises";
import path from "node:path";
import { ApiClient } from "../client/api-client.js";
import type { ModelInfo } from "../client/api-types.js";
import { BacktestError } from "../errors.js";
import type { ReferenceOptions } from "../forecastbench/reference-models.js";
import {
  auditRequests,
  type CutoffWarning,
  emptyRequestAudit,
  knowledgeCutoffWarnings,
  type RequestAudit,
} from "../leak-check.js";
import { loadQuestionSet } from "../question-sets/load.js";
import type { Summary } from "../summary.js";
import type { Aggregate, EvalItem, QuestionSet } from "../types.js";
import { batchInput, MAX_BATCH_LINES } from "./batch-lines.js";
import { type ModelBatchContext, runModelBatch } from "./model-batch.js";
import { writeOutputs } from "./outputs.js";
import { Progress, type ProgressSink } from "./progress.js";
import { fingerprintOf, newState, readState, StateStore, sha256 } from "./state.js";
import { uploadReport } from "./upload-report.js";

export interface BacktestOptions {
  questionsFile: string;
  resolutionsFile: string | null;
  models: string[];
  baseUrl: string;
  apiKey: string;
  research: boolean;
  samples: number;
  aggregate: Aggregate;
  limit: number | null;
  /** Seed of the --limit sample (default 0). */
  seed?: number;
  /** Fit a calibration map on half the questions (split by `seed`) and score the other half. */
  calibrate?: boolean;
  /** ForecastBench forecast files, for the difficulty-adjusted figures. */
  reference?: ReferenceOptions | null;
  outDir: string;
  pollMs: number;
  organization: string;
  /** Keep the summary and report on the server as `evaluation` files (see uploadReport). */
  upload: boolean;
  /** Cutoffs given on the command line; they override what `/v1/models` declares. */
  knowledgeCutoffs: Map<string, string>;
  progress: ProgressSink;
  /** Messages for the operator (stderr). */
  log(line: string): void;
}

export interface BacktestResult {
  summary: Summary;
  resumed: boolean;
  /** The summary's file on the server; null when not uploaded. */
  evaluationFileId: string | null;
}

/**
 * `sibyl eval run`: asks every model every question through the endpoint's batch API, resuming
 * the batches a previous run in the same --out started, then scores and reports.
 */
export async function runBacktest(options: BacktestOptions): Promise<BacktestResult> {
  const set = await loadBatchableSet(options);
  const outDir = path.resolve(options.outDir);
  await Promise.all(
    ["requests", "results", "forecastbench"].map((dir) =>
      mkdir(path.join(outDir, dir), { recursive: true }),
    ),
  );
  const client = new ApiClient({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    onRetry: (message) => options.log(`eval: ${message}`),
  });
  const inputs = new Map(
    options.models.map((model) => [
      model,
      batchInput(set.items, model, { research: options.research, samples: options.samples }),
    ]),
  );
  const available = await client.listModels();
  checkModels(
    options.models,
    available.map((model) => model.id),
  );
  const cutoffWarnings = knowledgeCutoffWarnings(cutoffsOf(available, options), set.items);
  for (const warning of cutoffWarnings) options.log(`eval: warning: ${cutoffMessage(warning)}`);

  const { store, resumed } = await openRun(options, client, outDir, inputs, available);
  const { state } = store;
  const spent = async () => {
    if (state.balance_start_usd === null) return null;
    const balance = await client.balanceUsd();
    return balance === null ? null : Math.max(0, state.balance_start_usd - balance);
  };
  await runBatches(options, { client, store, outDir }, inputs, spent);

  const requests = await auditStoredRequests(client, state.models, set.items);
  const summary = await writeOutputs({
    set,
    outDir,
    models: options.models,
    samples: options.samples,
    aggregate: options.aggregate,
    research: options.research,
    organization: options.organization,
    reference: options.reference ?? null,
    endpoint: client.endpoint,
    state,
    spentUsd: await spent(),
    requests,
    expectedRequestLines: set.items.length * options.models.length,
    cutoffWarnings,
    calibrateSeed: options.calibrate ? (options.seed ?? 0) : null,
  });
  const evaluationFileId = options.upload
    ? await uploadReport(client, outDir, summary, options.log)
    : null;
  return { summary, resumed, evaluationFileId };
}

/** The question set, refused when a model's requests would not fit in one batch. */
async function loadBatchableSet(options: BacktestOptions): Promise<QuestionSet> {
  const set = await loadQuestionSet(
    options.questionsFile,
    options.resolutionsFile,
    options.limit,
    options.seed ?? 0,
  );
  if (set.items.length > MAX_BATCH_LINES) {
    throw new BacktestError(
      `${set.items.length} requests per model exceed a batch's ${MAX_BATCH_LINES} lines: use --limit`,
    );
  }
  return set;
}

/** Each model's knowledge cutoff: as `/v1/models` declares it, unless the command line says. */
function cutoffsOf(available: ModelInfo[], options: BacktestOptions): Map<string, string> {
  const cutoffs = new Map<string, string>();
  for (const model of available) {
    if (options.models.includes(model.id) && typeof model.knowledge_cutoff === "string") {
      cutoffs.set(model.id, model.knowledge_cutoff);
    }
  }
  for (const [model, cutoff] of options.knowledgeCutoffs) cutoffs.set(model, cutoff);
  return cutoffs;
}

/**
 * The run's state: the one a previous run of the same backtest left in --out, else a new one,
 * saved at once; a state of another backtest is refused.
 */
async function openRun(
  options: BacktestOptions,
  client: ApiClient,
  outDir: string,
  inputs: Map<string, string>,
  available: ModelInfo[],
): Promise<{ store: StateStore; resumed: boolean }> {
  const fingerprint = fingerprintOf(
    [...inputs.entries()].map(([model, input]) => [model, sha256(input)]).sort(),
  );
  const saved = await readState(outDir);
  if (saved && (saved.fingerprint !== fingerprint || saved.endpoint !== client.endpoint)) {
    throw new BacktestError(
      `${outDir} holds a backtest of other questions, models, options or endpoint (run ${saved.run_id}); re-run that command or choose another --out`,
    );
  }
  const state =
    saved ??
    newState({
      fingerprint,
      endpoint: client.endpoint,
      questions_file: path.resolve(options.questionsFile),
      resolutions_file:
        options.resolutionsFile === null ? null : path.resolve(options.resolutionsFile),
      options: {
        models: options.models,
        research: options.research,
        samples: options.samples,
        limit: options.limit,
        seed: options.seed ?? 0,
      },
      model_organizations: organizationsOf(available, options.models),
      balance_start_usd: await client.balanceUsd(),
    });
  state.model_organizations = {
    ...organizationsOf(available, options.models),
    ...state.model_organizations,
  };
  const store = new StateStore(state, outDir);
  if (saved) options.log(`eval: resuming run ${state.run_id} in ${outDir}`);
  else await store.save();
  return { store, resumed: saved !== null };
}

/** Every model's batch at once, resumed where a previous run left it, with progress lines. */
async function runBatches(
  options: BacktestOptions,
  run: Pick<ModelBatchContext, "client" | "store" | "outDir">,
  inputs: Map<string, string>,
  spent: () => Promise<number | null>,
): Promise<void> {
  const progress = new Progress(options.progress, options.models);
  const context: ModelBatchContext = {
    ...run,
    progress,
    pollMs: options.pollMs,
    refreshSpent: async () => progress.spent(await spent()),
  };
  try {
    await Promise.all(
      options.models.map((model) => runModelBatch(context, model, inputs.get(model) ?? "")),
    );
  } finally {
    progress.finish();
  }
}

/** The organization each model belongs to, as `/v1/models` gives it (`owned_by`). */
function organizationsOf(available: ModelInfo[], models: string[]): Record<string, string> {
  return Object.fromEntries(
    available.flatMap((model) =>
      models.includes(model.id) && typeof model.owned_by === "string" && model.owned_by !== ""
        ? [[model.id, model.owned_by]]
        : [],
    ),
  );
}

function checkModels(requested: string[], available: string[]): void {
  if (available.length === 0) return;
  const unknown = requested.filter((model) => !available.includes(model));
  if (unknown.length > 0) {
    throw new BacktestError(
      `unknown model(s) ${unknown.join(", ")}; the endpoint lists: ${available.join(", ")}`,
    );
  }
}

export function cutoffMessage(warning: CutoffWarning): string {
  return `${warning.model} has knowledge cutoff ${warning.knowledge_cutoff}, after the prediction date of ${warning.requests_before_cutoff} request(s) (earliest ${warning.earliest_prediction_date}): the model may know the answers`;
}

/** Reads back each batch's input file from the endpoint: the requests as they were run. */
async function auditStoredRequests(
  client: ApiClient,
  models: Record<string, { input_file_id: string | null }>,
  items: EvalItem[],
): Promise<RequestAudit> {
  const audit = emptyRequestAudit();
  const byKey = new Map(items.map((item) => [item.key, item]));
  for (const entry of Object.values(models)) {
    if (entry.input_file_id === null) continue;
    auditRequests(audit, await client.fileContent(entry.input_file_id), byKey);
  }
  return audit;
}
