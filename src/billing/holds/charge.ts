import {
  assertAmount,
  type ChargeItem,
  type Reservation,
  type SettleDetails,
} from "../ledger-types.js";
import type { UsageDetails } from "../usage-records.js";

/** One settlement: what it charges for which hold, read once from the call. */
export interface Charge {
  reservation: Reservation;
  actualNanos: number;
  reference: string | null;
  /** The parts of the cost, adding up to it. */
  items: ChargeItem[];
  usage: UsageDetails | undefined;
  /** The reference may be charged once at most (see SettleDetails.once). */
  once: boolean;
  now: number;
}

export function chargeOf(
  reservation: Reservation,
  actualNanos: number,
  details: SettleDetails,
  now: number,
): Charge {
  assertAmount(actualNanos);
  return {
    reservation,
    actualNanos,
    reference: details.reference ?? null,
    items: chargeItems(actualNanos, details),
    usage: details.usage,
    once: details.once === true,
    now,
  };
}

/** Whether the charge is the one charge its reference may make. */
export function chargeOnce(charge: Charge): boolean {
  return charge.once && charge.reference !== null;
}

function chargeItems(actualNanos: number, details: SettleDetails): ChargeItem[] {
  const items = details.items ?? [{ amountNanos: actualNanos, memo: details.memo ?? null }];
  let sum = 0;
  for (const item of items) {
    assertAmount(item.amountNanos);
    sum += item.amountNanos;
  }
  if (sum !== actualNanos) {
    throw new RangeError(`charge items add up to ${sum} nano-dollars, not ${actualNanos}`);
  }
  return items;
}
