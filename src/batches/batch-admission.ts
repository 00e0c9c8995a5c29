import { keyRoomLeft, keySpendLimitReached } from "../billing/key-spend.js";
import type { Db } from "../db/database.js";
import { InsufficientCredits, ServiceError } from "../errors.js";
import { nanosToUsd } from "../util/money.js";
import { type BatchWorstCase, batchWorstCase, type WorstCaseDeps } from "./batch-worst-case.js";

export interface AdmissionDeps extends WorstCaseDeps {
  db: Db;
  /** What the organization may spend now. */
  balanceNanos(organizationId: string): Promise<number>;
}

const dollars = (nanos: number) => `$${nanosToUsd(nanos)}`;

/**
 * Refuses a batch at creation when one of its lines could not run: the dearest line's worst case
 * (at the batch price) is more than the organization's balance (402, which a server taking
 * payments answers with challenges for at least the whole batch's worst case) or than what the
 * creating key may still spend (403). Lines still hold one at a time as they run; this only
 * turns away, before anything is queued, a batch that would certainly leave lines unrun, since
 * the balance only falls while lines run. A batch whose lines are all free is never refused,
 * nor one that will fail validation (it runs no line).
 */
export async function admitBatch(
  deps: AdmissionDeps,
  organizationId: string,
  apiKeyId: string,
  inputFileId: string,
): Promise<void> {
  const worst = await batchWorstCase(deps, organizationId, inputFileId);
  if (!worst || worst.dearestNanos === 0) return;
  const keyRoom = await keyRoomLeft(deps.db, apiKeyId);
  if (keyRoom !== null && keyRoom < worst.dearestNanos) {
    const refusal = await keySpendLimitReached(deps.db, apiKeyId, worst.dearestNanos);
    throw new ServiceError("forbidden", `${refusal.message} ${holdsOf(worst)}`, {
      code: refusal.code,
    });
  }
  const balance = await deps.balanceNanos(organizationId);
  if (balance < worst.dearestNanos) {
    throw new InsufficientCredits(worst.totalNanos, {
      message: `Insufficient credits for this batch. ${holdsOf(worst)} The organization's balance is ${dollars(balance)}, so at least one line could not run. Top up the organization's balance, or ask for less (a lower max_tokens).`,
      headers: {},
    });
  }
}

function holdsOf(worst: BatchWorstCase): string {
  return `Its lines hold their worst case one at a time as they run, at the batch price: the dearest up to ${dollars(worst.dearestNanos)}, all ${worst.lines} together up to ${dollars(worst.totalNanos)}.`;
}
