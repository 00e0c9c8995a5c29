import type { UsageDetails } from "./usage-records.js";

/* The shapes of holds and charges, shared by the ledger and the credit leases. */

export interface Reservation {
  id: string;
  organizationId: string;
  amountNanos: number;
  /** The key whose spend limit carries the hold, when the key has one. */
  spendKeyId?: string | null;
  /** Set when the hold was taken from this process's lease rather than the balance. */
  leaseId?: string;
}

export interface EntryDetails {
  reference?: string | null;
  memo?: string | null;
}

export interface SettleDetails extends EntryDetails {
  /**
   * The reference names work that may be charged once at most (a batch line that a crash can
   * make run twice): a second settlement under the same organization and reference releases
   * its hold instead, and the database's unique key decides which one came second.
   */
  once?: boolean;
  /**
   * The parts of the cost (inference, each research source), each written as its own entry in
   * this order. Their amounts add up to the cost. Default: one entry with `memo`.
   */
  items?: ChargeItem[];
  /** Recorded with the charge for the usage reports; nothing is recorded without it. */
  usage?: UsageDetails;
  /**
   * The settlement shares a transaction with the work's recorded result: a hold that is no
   * longer open (returned by the sweep of a process thought dead, or charged already) throws
   * HoldNotOpen instead of charging nothing, so the result is not recorded uncharged.
   */
  whileHeld?: boolean;
}

/** The hold was returned or charged before this settlement: nothing was charged. */
export class HoldNotOpen extends Error {
  constructor(reservationId: string) {
    super(`hold ${reservationId} is no longer open`);
  }
}

export interface ChargeItem {
  amountNanos: number;
  memo: string | null;
}

/**
 * Shares out a charge that fell short of the cost (the balance ran out): the parts are paid in
 * order, the first in full before the next gets anything.
 */
export function allocateCharge(amounts: readonly number[], chargedNanos: number): number[] {
  let left = chargedNanos;
  return amounts.map((amount) => {
    const paid = Math.min(amount, left);
    left -= paid;
    return paid;
  });
}

export interface Settlement {
  chargedNanos: number;
  balanceNanos: number;
}

export function assertAmount(nanos: number): void {
  if (!Number.isSafeInteger(nanos) || nanos < 0) {
    throw new RangeError(`amount must be a non-negative whole number of nano-dollars: ${nanos}`);
  }
}
