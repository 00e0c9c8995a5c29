import { sql } from "kysely";
import type { DatabaseHandle } from "../db/connect.js";
import type { Db } from "../db/database.js";
import type { BatchLineStatus } from "../db/schema.js";

/**
 * The line queue: one small statement per operation. A line is `queued` → `running` (claimed with
 * a lease that its worker keeps renewing) → `succeeded` | `failed`. Every write after the claim
 * is fenced by owner and attempt, so a worker that lost its lease cannot record anything.
 */

export interface NewLine {
  batch_id: string;
  line_number: number;
  request_id: string;
  custom_id: string;
  body: string;
}

export interface ClaimedLine {
  batchId: string;
  lineNumber: number;
  requestId: string;
  customId: string;
  body: string;
  attempts: number;
}

/** Identifies one attempt at one line by one worker. */
export interface LineFence {
  batchId: string;
  lineNumber: number;
  owner: string;
  attempts: number;
}

export interface LineOutcome {
  status: Extract<BatchLineStatus, "succeeded" | "failed">;
  statusCode: number | null;
  responseRequestId: string | null;
  responseBody: string | null;
  errorCode: string | null;
  errorMessage: string | null;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  reasoningTokens: number;
  finishedAt: number;
}

export async function insertLines(db: Db, lines: NewLine[]): Promise<void> {
  if (lines.length === 0) return;
  await db.query
    .insertInto("batch_lines")
    // Own fields before the spread: see prepareCompletion (completions/plan.ts).
    .values(lines.map((line) => ({ status: "queued" as const, lease_owner: null, ...line })))
    .execute();
}

export async function deleteLines(db: Db, batchId: string): Promise<void> {
  await db.query.deleteFrom("batch_lines").where("batch_id", "=", batchId).execute();
}

interface ClaimRow {
  line_number: number;
  request_id: string;
  custom_id: string;
  body: string;
  attempts: number;
}

/**
 * Claims up to `limit` queued lines of a batch that is still in progress. PostgreSQL skips rows
 * other workers hold; SQLite runs the statement under its single writer lock.
 */
export async function claimLines(
  handle: DatabaseHandle,
  claim: {
    batchId: string;
    owner: string;
    nowMs: number;
    now: number;
    leaseUntil: number;
    limit: number;
  },
): Promise<ClaimedLine[]> {
  const skipLocked = handle.dialect === "postgres" ? sql`FOR UPDATE SKIP LOCKED` : sql``;
  // Materialized so the LIMIT is applied once: an inlined subquery may be re-run and hand out
  // more lines than asked for.
  const rows = await handle.db.rows(sql<ClaimRow>`
    WITH picked AS MATERIALIZED (
      SELECT line_number FROM batch_lines
       WHERE batch_id = ${claim.batchId} AND status = 'queued' AND available_at <= ${claim.nowMs}
       ORDER BY line_number
       LIMIT ${claim.limit}
       ${skipLocked})
    UPDATE batch_lines
       SET status = 'running', attempts = attempts + 1,
           lease_owner = ${claim.owner}, lease_until = ${claim.leaseUntil}
      FROM picked
     WHERE batch_lines.batch_id = ${claim.batchId}
       AND batch_lines.line_number = picked.line_number
       AND batch_lines.status = 'queued'
       AND EXISTS (
         SELECT 1 FROM batches
          WHERE id = ${claim.batchId} AND status = 'in_progress' AND expires_at > ${claim.now})
    RETURNING batch_lines.line_number, batch_lines.request_id, batch_lines.custom_id,
              batch_lines.body, batch_lines.attempts`);
  return rows.map((row) => ({
    batchId: claim.batchId,
    lineNumber: Number(row.line_number),
    requestId: row.request_id,
    customId: row.custom_id,
    body: row.body,
    attempts: Number(row.attempts),
  }));
}

export async function extendLineLeases(
  db: Db,
  owner: string,
  batchId: string,
  lineNumbers: number[],
  untilMs: number,
): Promise<void> {
  if (lineNumbers.length === 0) return;
  await db.query
    .updateTable("batch_lines")
    .set({ lease_until: untilMs })
    .where("batch_id", "=", batchId)
    .where("line_number", "in", lineNumbers)
    .where("status", "=", "running")
    .where("lease_owner", "=", owner)
    .execute();
}

/** Records the line's result; false when this attempt no longer owns the line. */
export async function recordOutcome(
  db: Db,
  fence: LineFence,
  outcome: LineOutcome,
): Promise<boolean> {
  const result = await db.query
    .updateTable("batch_lines")
    .set({
      status: outcome.status,
      status_code: outcome.statusCode,
      response_request_id: outcome.responseRequestId,
      response_body: outcome.responseBody,
      error_code: outcome.errorCode,
      error_message: outcome.errorMessage,
      input_tokens: outcome.inputTokens,
      output_tokens: outcome.outputTokens,
      cached_tokens: outcome.cachedTokens,
      reasoning_tokens: outcome.reasoningTokens,
      finished_at: outcome.finishedAt,
      lease_owner: null,
      lease_until: null,
    })
    .where((eb) => eb.and(stillOwned(fence)))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Puts the line back in the queue, not to be claimed before `availableAt` (ms). */
export async function requeue(db: Db, fence: LineFence, availableAt: number): Promise<boolean> {
  const result = await db.query
    .updateTable("batch_lines")
    .set({ status: "queued", available_at: availableAt, lease_owner: null, lease_until: null })
    .where((eb) => eb.and(stillOwned(fence)))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Hands a line this worker is giving up (it is shutting down) back to the queue, as if this
 * attempt never started; false when the attempt had already finished or lost the line.
 */
export async function returnLine(db: Db, fence: LineFence): Promise<boolean> {
  const changed = await db.changes(sql`
    update batch_lines
       set status = 'queued', attempts = attempts - 1, lease_owner = null, lease_until = null
     where batch_id = ${fence.batchId} and line_number = ${fence.lineNumber}
       and status = 'running' and lease_owner = ${fence.owner} and attempts = ${fence.attempts}`);
  return changed > 0;
}

/** The line as it stands while this attempt owns it: still running, under its owner and attempt. */
function stillOwned(fence: LineFence) {
  return {
    batch_id: fence.batchId,
    line_number: fence.lineNumber,
    status: "running" as const,
    lease_owner: fence.owner,
    attempts: fence.attempts,
  };
}

/** The columns of a line that ends failed with no response (it never ran, or never finished). */
function failedWithoutResult(error: { code: string; message: string }, now: number) {
  return {
    status: "failed" as const,
    error_code: error.code,
    error_message: error.message,
    finished_at: now,
    lease_owner: null,
    lease_until: null,
  };
}

/** Why a line that was tried as often as allowed without an answer ends failed. */
export function attemptsExhausted(maxAttempts: number): { code: string; message: string } {
  return {
    code: "attempts_exhausted",
    message: `The request was started ${maxAttempts} times without finishing.`,
  };
}

/** The custom ids of running lines whose lease ran out: their workers' holds are to be returned. */
export async function expiredRunningLines(
  db: Db,
  batchId: string,
  nowMs: number,
): Promise<string[]> {
  const rows = await db.query
    .selectFrom("batch_lines")
    .select("custom_id")
    .where("batch_id", "=", batchId)
    .where("status", "=", "running")
    .where("lease_until", "<", nowMs)
    .execute();
  return rows.map((row) => row.custom_id);
}

/**
 * Lines whose worker stopped renewing its lease go back to the queue, or fail when they have
 * been tried `maxAttempts` times already (a line that keeps killing its worker). Returns the
 * custom ids of the lines moved: a lease renewed since `nowMs` was read keeps its line running.
 */
export async function reclaimExpired(
  db: Db,
  batchId: string,
  nowMs: number,
  maxAttempts: number,
  now: number,
): Promise<string[]> {
  const failed = await db.query
    .updateTable("batch_lines")
    .set(failedWithoutResult(attemptsExhausted(maxAttempts), now))
    .where("batch_id", "=", batchId)
    .where("status", "=", "running")
    .where("lease_until", "<", nowMs)
    .where("attempts", ">=", maxAttempts)
    .returning("custom_id")
    .execute();
  const requeued = await db.query
    .updateTable("batch_lines")
    .set({ status: "queued", lease_owner: null, lease_until: null })
    .where("batch_id", "=", batchId)
    .where("status", "=", "running")
    .where("lease_until", "<", nowMs)
    .returning("custom_id")
    .execute();
  return [...failed, ...requeued].map((row) => row.custom_id);
}

/**
 * Fails every line that has not started, and every running line whose worker died, with `code`
 * (e.g. batch_expired). Returns the custom ids of the running lines it failed.
 */
export async function failUnstarted(
  db: Db,
  batchId: string,
  error: { code: string; message: string },
  nowMs: number,
  now: number,
): Promise<string[]> {
  await db.query
    .updateTable("batch_lines")
    .set(failedWithoutResult(error, now))
    .where("batch_id", "=", batchId)
    .where("status", "=", "queued")
    .execute();
  const dead = await db.query
    .updateTable("batch_lines")
    .set(failedWithoutResult(error, now))
    .where("batch_id", "=", batchId)
    .where("status", "=", "running")
    .where("lease_until", "<", nowMs)
    .returning("custom_id")
    .execute();
  return dead.map((row) => row.custom_id);
}

/** How many lines are not finished yet. */
export async function countOpenLines(db: Db, batchId: string): Promise<number> {
  const row = await db.query
    .selectFrom("batch_lines")
    .select((eb) => eb.fn.countAll<number>().as("open"))
    .where("batch_id", "=", batchId)
    .where("status", "in", ["queued", "running"])
    .executeTakeFirstOrThrow();
  return Number(row.open);
}

export interface FinishedLine {
  line_number: number;
  request_id: string;
  custom_id: string;
  status_code: number | null;
  response_request_id: string | null;
  response_body: string | null;
  error_code: string | null;
  error_message: string | null;
}

/** One page of finished lines with the given status, in line order. */
export async function finishedLines(
  db: Db,
  batchId: string,
  status: "succeeded" | "failed",
  afterLine: number,
  limit: number,
): Promise<FinishedLine[]> {
  return db.query
    .selectFrom("batch_lines")
    .select([
      "line_number",
      "request_id",
      "custom_id",
      "status_code",
      "response_request_id",
      "response_body",
      "error_code",
      "error_message",
    ])
    .where("batch_id", "=", batchId)
    .where("status", "=", status)
    .where("line_number", ">", afterLine)
    .orderBy("line_number")
    .limit(limit)
    .execute();
}

/** Whether the batch has any line with this status. */
export async function hasLines(db: Db, batchId: string, status: BatchLineStatus): Promise<boolean> {
  const row = await db.query
    .selectFrom("batch_lines")
    .select("line_number")
    .where("batch_id", "=", batchId)
    .where("status", "=", status)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
