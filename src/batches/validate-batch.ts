import type { Readable } from "node:stream";
import type { DatabaseHandle } from "../db/connect.js";
import type { Files } from "../files/files-service.js";
import { readLines } from "../files/lines.js";
import { MAX_LINE_BYTES } from "../files/upload-inspector.js";
import { type Clock, unixSeconds } from "../util/clock.js";
import { newId } from "../util/ids.js";
import type { BatchError } from "./batch-object.js";
import { transition } from "./batch-records.js";
import { deleteLines, insertLines, type NewLine } from "./line-queue.js";
import { LineValidator } from "./line-validator.js";

export const MAX_BATCH_LINES = 50_000;
const INSERT_CHUNK = 500;

export interface ValidationDeps {
  handle: DatabaseHandle;
  files: Files;
  clock: Clock;
  knownModel(id: string): boolean;
}

export interface BatchToValidate {
  id: string;
  organization_id: string;
  input_file_id: string;
}

/**
 * Reads the input file line by line, checking each and queueing it, then moves the batch to
 * `in_progress`, or to `failed` with every problem found. Safe to repeat after a crash: it starts
 * by removing whatever lines an earlier attempt queued.
 */
export async function validateBatch(deps: ValidationDeps, batch: BatchToValidate): Promise<void> {
  const { db } = deps.handle;
  await deleteLines(db, batch.id);
  const opened = await deps.files.open(batch.organization_id, batch.input_file_id);
  if (!opened) {
    return fail(deps, batch, [
      {
        code: "file_not_found",
        message: `The input file '${batch.input_file_id}' does not exist (or has expired or been deleted).`,
        param: "input_file_id",
        line: null,
      },
    ]);
  }
  if (opened.file.purpose !== "batch") {
    opened.body.destroy();
    return fail(deps, batch, [
      {
        code: "invalid_input_file",
        message: `The input file '${batch.input_file_id}' has purpose '${opened.file.purpose}'; a batch reads files with purpose 'batch'.`,
        param: "input_file_id",
        line: null,
      },
    ]);
  }

  const validator = new LineValidator(deps.knownModel);
  const { count, errors } = await queueLines(db, batch, opened.body, validator);
  if (count === 0) {
    errors.push({
      code: "empty_file",
      message: `The input file '${batch.input_file_id}' holds no requests.`,
      param: "input_file_id",
      line: null,
    });
  }
  if (errors.length > 0) {
    await deleteLines(db, batch.id);
    return fail(deps, batch, errors);
  }
  const started = await transition(
    db,
    batch.id,
    "validating",
    "in_progress",
    unixSeconds(deps.clock),
    { request_total: count, model: validator.batchModel },
  );
  // Cancelled while validating: nothing was run, so nothing is kept.
  if (!started) await deleteLines(db, batch.id);
}

/**
 * Checks every line of the input and queues the valid ones while no line has failed; counts
 * the requests and collects every problem.
 */
async function queueLines(
  db: DatabaseHandle["db"],
  batch: BatchToValidate,
  body: Readable,
  validator: LineValidator,
): Promise<{ count: number; errors: BatchError[] }> {
  const errors: BatchError[] = [];
  let pending: NewLine[] = [];
  let count = 0;
  for await (const line of readLines(body, MAX_LINE_BYTES)) {
    if (line.text !== null && line.text.trim() === "") continue;
    count += 1;
    if (count > MAX_BATCH_LINES) {
      errors.push({
        code: "too_many_lines",
        message: `A batch may hold at most ${MAX_BATCH_LINES} requests; this file has more.`,
        param: null,
        line: line.number,
      });
      body.destroy();
      break;
    }
    const verdict = validator.check(line.number, line.text);
    if (!verdict.valid) {
      errors.push(...verdict.errors);
      continue;
    }
    if (errors.length > 0) continue;
    pending.push({
      batch_id: batch.id,
      line_number: line.number,
      request_id: newId("batch_req_"),
      custom_id: verdict.customId,
      body: JSON.stringify(verdict.body),
    });
    if (pending.length >= INSERT_CHUNK) {
      await insertLines(db, pending);
      pending = [];
    }
  }
  if (errors.length === 0) await insertLines(db, pending);
  return { count, errors };
}

async function fail(deps: ValidationDeps, batch: BatchToValidate, errors: BatchError[]) {
  await transition(deps.handle.db, batch.id, "validating", "failed", unixSeconds(deps.clock), {
    errors: JSON.stringify(errors),
  });
}
