import { Readable } from "node:stream";
import type { DatabaseHandle } from "../db/connect.js";
import type { BatchStatus } from "../db/schema.js";
import { insertFile } from "../files/file-records.js";
import type { Files } from "../files/files-service.js";
import { type Clock, unixSeconds } from "../util/clock.js";
import { batchById, tallyLines } from "./batch-records.js";
import { hasLines } from "./line-queue.js";
import { resultFile } from "./result-lines.js";

export interface FinalizeDeps {
  handle: DatabaseHandle;
  files: Files;
  clock: Clock;
}

type Ending = Extract<BatchStatus, "completed" | "cancelled" | "expired">;

interface WrittenFile {
  id: string;
  bytes: number;
}

/**
 * Writes the output file (successes) and the error file (failures) by streaming the finished
 * lines, then in one transaction records both files and moves the batch from `from` to `to` with
 * its final counts and usage. The caller holds the batch lease; every line must be finished.
 */
export async function finalizeBatch(
  deps: FinalizeDeps,
  batchId: string,
  from: BatchStatus,
  to: Ending,
): Promise<boolean> {
  const { db } = deps.handle;
  const batch = await batchById(db, batchId);
  if (!batch || batch.status !== from) return false;
  const output = await writeResults(deps, batchId, "succeeded");
  const errors = await writeResults(deps, batchId, "failed");
  const tally = (await tallyLines(db, [batchId])).get(batchId);
  const now = unixSeconds(deps.clock);
  const expiresAt = batch.output_expires_after === null ? null : now + batch.output_expires_after;
  const moved = await db.transaction(async (tx) => {
    const result = await tx.query
      .updateTable("batches")
      .set({
        status: to,
        [`${to}_at`]: now,
        output_file_id: output?.id ?? null,
        error_file_id: errors?.id ?? null,
        request_completed: tally?.completed ?? 0,
        request_failed: tally?.failed ?? 0,
        input_tokens: tally?.inputTokens ?? 0,
        output_tokens: tally?.outputTokens ?? 0,
        cached_tokens: tally?.cachedTokens ?? 0,
        reasoning_tokens: tally?.reasoningTokens ?? 0,
        lease_owner: null,
        lease_until: null,
      })
      .where("id", "=", batchId)
      .where("status", "=", from)
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) return false;
    for (const [file, kind] of [
      [output, "output"],
      [errors, "error"],
    ] as const) {
      if (!file) continue;
      await insertFile(tx, {
        id: file.id,
        organization_id: batch.organization_id,
        purpose: "batch_output",
        filename: `${batchId}_${kind}.jsonl`,
        bytes: file.bytes,
        status: "processed",
        status_details: null,
        created_at: now,
        expires_at: expiresAt,
      });
    }
    return true;
  });
  if (!moved) {
    for (const file of [output, errors]) if (file) await deps.files.discardBlob(file.id);
  }
  return moved;
}

async function writeResults(
  deps: FinalizeDeps,
  batchId: string,
  status: "succeeded" | "failed",
): Promise<WrittenFile | null> {
  if (!(await hasLines(deps.handle.db, batchId, status))) return null;
  return deps.files.writeBlob(Readable.from(resultFile(deps.handle.db, batchId, status)));
}
