import type { Updateable } from "kysely";
import type { Db } from "../db/database.js";
import type { BatchesTable, BatchStatus } from "../db/schema.js";
import { isWellFormedId } from "../util/ids.js";
import type { BatchRow, LineTally } from "./batch-object.js";

const COLUMNS = [
  "id",
  "organization_id",
  "endpoint",
  "input_file_id",
  "completion_window",
  "status",
  "output_file_id",
  "error_file_id",
  "errors",
  "metadata",
  "model",
  "output_expires_after",
  "created_at",
  "expires_at",
  "in_progress_at",
  "finalizing_at",
  "completed_at",
  "failed_at",
  "expired_at",
  "cancelling_at",
  "cancelled_at",
  "request_total",
  "request_completed",
  "request_failed",
  "input_tokens",
  "output_tokens",
  "cached_tokens",
  "reasoning_tokens",
] as const;

export type NewBatch = Pick<
  BatchesTable,
  | "id"
  | "organization_id"
  | "endpoint"
  | "input_file_id"
  | "completion_window"
  | "metadata"
  | "output_expires_after"
  | "created_at"
  | "expires_at"
  | "api_key_id"
>;

export async function insertBatch(db: Db, batch: NewBatch): Promise<void> {
  await db.query
    .insertInto("batches")
    .values({
      ...batch,
      status: "validating",
      output_file_id: null,
      error_file_id: null,
      errors: null,
      model: null,
      in_progress_at: null,
      finalizing_at: null,
      completed_at: null,
      failed_at: null,
      expired_at: null,
      cancelling_at: null,
      cancelled_at: null,
      lease_owner: null,
      lease_until: null,
    })
    .execute();
}

export async function findBatch(
  db: Db,
  organizationId: string,
  id: string,
): Promise<BatchRow | undefined> {
  if (!isWellFormedId(id)) return undefined;
  return db.query
    .selectFrom("batches")
    .select(COLUMNS)
    .where("id", "=", id)
    .where("organization_id", "=", organizationId)
    .executeTakeFirst();
}

export async function batchById(db: Db, id: string): Promise<BatchRow | undefined> {
  return db.query.selectFrom("batches").select(COLUMNS).where("id", "=", id).executeTakeFirst();
}

/** Newest first; `limit + 1` rows so the caller can tell whether more follow. */
export async function listBatches(
  db: Db,
  organizationId: string,
  beforeSeq: number | undefined,
  limit: number,
): Promise<BatchRow[]> {
  return db.query
    .selectFrom("batches")
    .select(COLUMNS)
    .where("organization_id", "=", organizationId)
    .$if(beforeSeq !== undefined, (q) => q.where("seq", "<", beforeSeq ?? 0))
    .orderBy("seq", "desc")
    .limit(limit + 1)
    .execute();
}

/** Live counts and token sums of the given batches' lines. */
export async function tallyLines(db: Db, batchIds: string[]): Promise<Map<string, LineTally>> {
  const tallies = new Map<string, LineTally>();
  if (batchIds.length === 0) return tallies;
  const rows = await db.query
    .selectFrom("batch_lines")
    .select((eb) => [
      "batch_id",
      "status",
      eb.fn.countAll<number>().as("lines"),
      eb.fn.sum<number>("input_tokens").as("input_tokens"),
      eb.fn.sum<number>("output_tokens").as("output_tokens"),
      eb.fn.sum<number>("cached_tokens").as("cached_tokens"),
      eb.fn.sum<number>("reasoning_tokens").as("reasoning_tokens"),
    ])
    .where("batch_id", "in", batchIds)
    .where("status", "in", ["succeeded", "failed"])
    .groupBy(["batch_id", "status"])
    .execute();
  for (const id of batchIds) {
    tallies.set(id, {
      completed: 0,
      failed: 0,
      inputTokens: 0,
      outputTokens: 0,
      cachedTokens: 0,
      reasoningTokens: 0,
    });
  }
  for (const row of rows) {
    const tally = tallies.get(row.batch_id);
    if (!tally) continue;
    const lines = Number(row.lines);
    if (row.status === "succeeded") tally.completed += lines;
    else tally.failed += lines;
    tally.inputTokens += Number(row.input_tokens ?? 0);
    tally.outputTokens += Number(row.output_tokens ?? 0);
    tally.cachedTokens += Number(row.cached_tokens ?? 0);
    tally.reasoningTokens += Number(row.reasoning_tokens ?? 0);
  }
  return tallies;
}

const TIMESTAMP_OF: Partial<Record<BatchStatus, keyof BatchesTable>> = {
  in_progress: "in_progress_at",
  finalizing: "finalizing_at",
  completed: "completed_at",
  failed: "failed_at",
  expired: "expired_at",
  cancelling: "cancelling_at",
  cancelled: "cancelled_at",
};

/**
 * Moves a batch from one status to the next, stamping the new status's timestamp; false when the
 * batch was no longer in `from` (someone else moved it first).
 */
export async function transition(
  db: Db,
  id: string,
  from: BatchStatus,
  to: BatchStatus,
  now: number,
  fields: Updateable<BatchesTable> = {},
): Promise<boolean> {
  const stamp = TIMESTAMP_OF[to];
  const result = await db.query
    .updateTable("batches")
    .set({ ...fields, status: to, ...(stamp ? { [stamp]: now } : {}) })
    .where("id", "=", id)
    .where("status", "=", from)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The key a batch's lines spend under, as a request of that key would. */
export interface BatchKey {
  id: string;
  spendLimited: boolean;
}

export interface UnfinishedBatch {
  id: string;
  organization_id: string;
  status: BatchStatus;
  expires_at: number;
  /** The key that created the batch; null for batches from before keys were remembered. */
  key: BatchKey | null;
}

/** Every batch a worker may still have to act on. */
export async function unfinishedBatches(db: Db): Promise<UnfinishedBatch[]> {
  const rows = await db.query
    .selectFrom("batches")
    .leftJoin("api_keys", "api_keys.id", "batches.api_key_id")
    .select([
      "batches.id",
      "batches.organization_id",
      "batches.status",
      "batches.expires_at",
      "batches.api_key_id",
      "api_keys.spend_limit_nanos",
    ])
    .where("batches.status", "in", ["validating", "in_progress", "cancelling", "finalizing"])
    .orderBy("batches.seq")
    .execute();
  return rows.map(({ api_key_id, spend_limit_nanos, ...batch }) => ({
    ...batch,
    key: api_key_id ? { id: api_key_id, spendLimited: spend_limit_nanos !== null } : null,
  }));
}

/** Takes (or renews) the exclusive right to validate or finalize a batch. */
export async function claimBatchLease(
  db: Db,
  id: string,
  owner: string,
  nowMs: number,
  untilMs: number,
): Promise<boolean> {
  const result = await db.query
    .updateTable("batches")
    .set({ lease_owner: owner, lease_until: untilMs })
    .where("id", "=", id)
    .where((eb) =>
      eb.or([
        eb("lease_until", "is", null),
        eb("lease_until", "<", nowMs),
        eb("lease_owner", "=", owner),
      ]),
    )
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function extendBatchLeases(
  db: Db,
  owner: string,
  ids: string[],
  untilMs: number,
): Promise<void> {
  if (ids.length === 0) return;
  await db.query
    .updateTable("batches")
    .set({ lease_until: untilMs })
    .where("id", "in", ids)
    .where("lease_owner", "=", owner)
    .execute();
}

export async function releaseBatchLease(db: Db, id: string, owner: string): Promise<void> {
  await db.query
    .updateTable("batches")
    .set({ lease_owner: null, lease_until: null })
    .where("id", "=", id)
    .where("lease_owner", "=", owner)
    .execute();
}
