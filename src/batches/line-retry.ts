import type { Ledger } from "../billing/ledger.js";
import type { Db } from "../db/database.js";
import type { Clock } from "../util/clock.js";
import { type LineFence, type LineOutcome, recordOutcome, requeue } from "./line-queue.js";

export interface LineRetryDeps {
  db: Db;
  ledger: Pick<Ledger, "releaseByReference">;
  clock: Clock;
  /** Delay before the first retry; doubles with each attempt. */
  retryBaseMs: number;
}

/** Where an attempt's hold may still be open: the line's organization and billing reference. */
export interface LineHold {
  organizationId: string;
  reference: string;
}

const MAX_RETRY_DELAY_MS = 60_000;

/** Puts the line back in the queue, to run again after a delay that doubles with each attempt. */
export async function retryLater(
  deps: LineRetryDeps,
  fence: LineFence,
  hold: LineHold,
): Promise<void> {
  const delay = Math.min(deps.retryBaseMs * 2 ** (fence.attempts - 1), MAX_RETRY_DELAY_MS);
  await endAttempt(deps, hold, (tx) => requeue(tx, fence, deps.clock.now() + delay));
}

/** Ends the line with an outcome that charges nothing. */
export async function finishUncharged(
  deps: LineRetryDeps,
  fence: LineFence,
  hold: LineHold,
  outcome: LineOutcome,
): Promise<void> {
  await endAttempt(deps, hold, (tx) => recordOutcome(tx, fence, outcome));
}

/**
 * Moves the line on and returns the attempt's hold in one transaction. The pipeline returns the
 * hold of failed work itself, except when the database is what failed; then only this release
 * (or the lease sweep, should this transaction fail too) returns it. An attempt that no longer
 * owns its line releases nothing: the hold under the line's reference may be the next attempt's.
 */
async function endAttempt(
  deps: LineRetryDeps,
  hold: LineHold,
  move: (tx: Db) => Promise<boolean>,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    if (!(await move(tx))) return;
    await deps.ledger.releaseByReference(hold.organizationId, [hold.reference], tx);
  });
}
