import { readFile } from "node:fs/promises";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { ApiClient } from "../client/api-client.js";
import { type BatchInfo, TERMINAL_BATCH_STATUSES } from "../client/api-types.js";
import { BacktestError } from "../errors.js";
import { writeFileAtomic } from "./atomic-file.js";
import type { Progress } from "./progress.js";
import { type ModelBatchState, type StateStore, sha256 } from "./state.js";

/** Metadata that finds a batch again after a crash between creating it and saving its id. */
const RUN_KEY = "sibyl_eval_run";
const MODEL_KEY = "sibyl_eval_model";
/** Pages of the batch list searched for it: the batch is among the newest. */
const SEARCH_PAGES = 10;

export interface ModelBatchContext {
  client: ApiClient;
  store: StateStore;
  progress: Progress;
  outDir: string;
  pollMs: number;
  /** Refreshes the money spent so far, shown beside the counts. */
  refreshSpent(): Promise<void>;
}

/** Where a model's files live in --out: its input, and the result files once downloaded. */
export function modelFiles(outDir: string, model: string) {
  const safe = safeName(model);
  return {
    input: path.join(outDir, "requests", `${safe}.jsonl`),
    output: path.join(outDir, "results", `${safe}.output.jsonl`),
    errors: path.join(outDir, "results", `${safe}.errors.jsonl`),
  };
}

export function safeName(model: string): string {
  return model.replace(/[^A-Za-z0-9._-]+/g, "_");
}

/**
 * Runs one model's batch to its end, resuming from the saved state: uploads the input once,
 * creates the batch once (finding it by metadata if a crash lost its id), polls it, and saves
 * its output and error files.
 */
export async function runModelBatch(
  context: ModelBatchContext,
  model: string,
  input: string,
): Promise<void> {
  const { client, store, outDir } = context;
  const files = modelFiles(outDir, model);
  const inputSha = sha256(input);
  const entry = store.state.models[model] ?? {
    input_sha256: inputSha,
    input_file_id: null,
    batch_id: null,
    status: null,
    downloaded: false,
  };
  store.state.models[model] = entry;
  if (entry.input_sha256 !== inputSha) {
    throw new BacktestError(`the saved state of ${model} is for other requests; use a new --out`);
  }
  if (entry.downloaded) return;
  await writeFileAtomic(files.input, input);

  const batchId = entry.batch_id ?? (await startBatch(context, model, entry, input));
  const batch = await poll(context, model, batchId);
  if (batch.status === "failed") throw batchFailed(model, batch);
  const [output, errors] = await Promise.all([
    batch.output_file_id ? client.fileContent(batch.output_file_id) : "",
    batch.error_file_id ? client.fileContent(batch.error_file_id) : "",
  ]);
  await writeFileAtomic(files.output, output);
  await writeFileAtomic(files.errors, errors);
  entry.status = batch.status;
  entry.downloaded = true;
  await store.save();
}

/**
 * Creates the model's batch once, uploading its input first if that was not done; a batch a
 * crash kept from being saved is found by its metadata instead. Returns its id, saved.
 */
async function startBatch(
  context: ModelBatchContext,
  model: string,
  entry: ModelBatchState,
  input: string,
): Promise<string> {
  const { client, store } = context;
  // Only an uploaded input can have a batch that a crash kept us from saving.
  const found =
    entry.input_file_id === null ? null : await findBatch(client, store.state.run_id, model);
  if (found) {
    entry.batch_id = found.id;
    entry.input_file_id = found.input_file_id;
  } else {
    if (entry.input_file_id === null) {
      const name = path.basename(modelFiles(context.outDir, model).input);
      entry.input_file_id = (await client.uploadBatchFile(input, name)).id;
      await store.save();
    }
    const batch = await client.createBatch(entry.input_file_id, {
      [RUN_KEY]: store.state.run_id,
      [MODEL_KEY]: model.slice(0, 512),
    });
    entry.batch_id = batch.id;
  }
  await store.save();
  return entry.batch_id;
}

function batchFailed(model: string, batch: BatchInfo): BacktestError {
  const reasons = (batch.errors?.data ?? [])
    .slice(0, 5)
    .map(
      (error) =>
        `${error.line === null ? "" : `line ${error.line}: `}${error.message ?? error.code}`,
    );
  return new BacktestError(
    `the batch of ${model} (${batch.id}) failed: ${reasons.join("; ") || "no reason given"}`,
  );
}

async function findBatch(
  client: ApiClient,
  runId: string,
  model: string,
): Promise<BatchInfo | null> {
  let after: string | null = null;
  for (let page = 0; page < SEARCH_PAGES; page++) {
    const list = await client.listBatches(after);
    const match = list.data.find(
      (batch) =>
        batch.metadata?.[RUN_KEY] === runId && batch.metadata?.[MODEL_KEY] === model.slice(0, 512),
    );
    if (match) return match;
    if (!list.has_more || list.last_id === null) return null;
    after = list.last_id;
  }
  return null;
}

async function poll(
  context: ModelBatchContext,
  model: string,
  batchId: string,
): Promise<BatchInfo> {
  for (;;) {
    const batch = await context.client.getBatch(batchId);
    await context.refreshSpent();
    const counts = batch.request_counts ?? { total: 0, completed: 0, failed: 0 };
    context.progress.update(model, {
      total: counts.total,
      done: counts.completed,
      failed: counts.failed,
      status: batch.status,
    });
    if (TERMINAL_BATCH_STATUSES.includes(batch.status)) return batch;
    await sleep(context.pollMs);
  }
}

/** The saved results of a model whose batch has finished. */
export async function readModelResults(outDir: string, model: string): Promise<[string, string]> {
  const files = modelFiles(outDir, model);
  return Promise.all([readFile(files.output, "utf8"), readFile(files.errors, "utf8")]);
}
