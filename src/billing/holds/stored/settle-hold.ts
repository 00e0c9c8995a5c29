import type { Db } from "../../../db/database.js";
import { claimOnce } from "../../../db/single-use.js";
import { keyRoom, moveKeySpend } from "../../key-spend.js";
import { appendCharges } from "../../ledger-entries.js";
import { allocateCharge, type ChargeItem, type Settlement } from "../../ledger-types.js";
import { insertUsageRecord } from "../../usage-records.js";
import { type Charge, chargeOnce } from "../charge.js";
import { claimAndChargeCovered, type SettleValues } from "./charge-covered.js";
import { chargeWhatRemains } from "./charge-what-remains.js";
import { releaseHold } from "./release-hold.js";
import { lockIfHeld } from "./row-locks.js";

/*
 * Settling a stored hold: claim it, charge the cost (as far as the hold and the balance reach)
 * and write its entries and usage record. Some holds need a step before the charge, and after
 * it; those steps are the table below, and a hold that needs none settles in one statement on
 * PostgreSQL.
 */

interface AroundTheCharge {
  /** Whether the hold needs this step. */
  applies(charge: Charge): boolean;
  /** Runs before the charge: the charge to make (possibly cut), or null to charge nothing. */
  before(tx: Db, charge: Charge): Promise<Charge | null>;
  /** Runs after a charge was made. */
  after?(tx: Db, charge: Charge, settlement: Settlement): Promise<void>;
}

const AROUND_THE_CHARGE: readonly AroundTheCharge[] = [
  // A single-use reference is claimed only for a hold that is still open: a released hold must
  // not use up the one charge its work may make. A second settlement under it releases its hold.
  {
    applies: chargeOnce,
    async before(tx, charge) {
      if (!(await lockIfHeld(tx, charge.reservation.id))) return null;
      const scope = `charge:${charge.reservation.organizationId}`;
      if (await claimOnce(tx, scope, charge.reference as string, charge.now)) return charge;
      await releaseHold(tx, charge.reservation, charge.now);
      return null;
    },
  },
  // A key with a spend limit cuts the cost to what the key may still spend, as the balance cuts
  // it, and then counts what was charged in place of the hold.
  {
    applies: (charge) => Boolean(charge.reservation.spendKeyId),
    before: withinKeyLimit,
    async after(tx, charge, settlement) {
      const { spendKeyId, amountNanos } = charge.reservation;
      await tx.changes(moveKeySpend(spendKeyId as string, settlement.chargedNanos - amountNanos));
    },
  },
];

/**
 * Whether the settlement can be one statement that is its own transaction (PostgreSQL): outside a
 * caller's transaction, with no step around the charge, and a cost within the hold, which the
 * hold alone always covers.
 */
export function settlesInOneStatement(charge: Charge, db: Db): boolean {
  return (
    db.dialect === "postgres" &&
    !db.inTransaction &&
    !AROUND_THE_CHARGE.some((step) => step.applies(charge)) &&
    charge.actualNanos <= charge.reservation.amountNanos
  );
}

/** The one-statement settlement (see settlesInOneStatement); null when the hold was not open. */
export async function settleInOneStatement(db: Db, charge: Charge): Promise<Settlement | null> {
  const outcome = await claimAndChargeCovered(db, settleValues(charge));
  if (outcome === "not covered") throw new Error("a cost within its hold was not covered");
  return outcome === "not claimed" ? null : outcome;
}

/**
 * Settles the hold in the caller's transaction, with the steps it needs around the charge; null
 * when nothing was charged (the hold was not open, or its one charge was made already).
 */
export async function settleInTransaction(tx: Db, charge: Charge): Promise<Settlement | null> {
  const steps = AROUND_THE_CHARGE.filter((step) => step.applies(charge));
  let toCharge: Charge | null = charge;
  for (const step of steps) {
    toCharge = await step.before(tx, toCharge);
    if (toCharge === null) return null;
  }
  const settlement = await chargeHold(tx, toCharge);
  if (settlement === null) return null;
  for (const step of steps) await step.after?.(tx, charge, settlement);
  return settlement;
}

/**
 * The cost cut to what the hold's key may still spend; null when the hold is no longer open.
 * Locks the reservation before the key (see key-spend.ts).
 */
async function withinKeyLimit(tx: Db, charge: Charge): Promise<Charge | null> {
  const { reservation, actualNanos, items } = charge;
  if (!(await lockIfHeld(tx, reservation.id))) return null;
  const room = await keyRoom(tx, reservation.spendKeyId as string, reservation.amountNanos);
  if (room === null || actualNanos <= room) return charge;
  const nanos = Math.max(0, room);
  return {
    reservation,
    actualNanos: nanos,
    reference: charge.reference,
    items: paidParts(items, nanos),
    usage: charge.usage,
    once: charge.once,
    now: charge.now,
  };
}

/**
 * Charges a hold (as far as the balance reaches) and records its usage; null when it was no
 * longer held.
 */
async function chargeHold(tx: Db, charge: Charge): Promise<Settlement | null> {
  const { reservation, reference, items, usage, now } = charge;
  const outcome = await claimAndChargeCovered(tx, settleValues(charge));
  if (outcome === "not claimed") return null;
  if (outcome !== "not covered") return outcome;
  const settlement = await chargeWhatRemains(tx, reservation, charge.actualNanos);
  const organizationId = reservation.organizationId;
  if (usage) {
    await tx.changes(insertUsageRecord(organizationId, usage, settlement.chargedNanos, now));
  }
  const paid = paidParts(items, settlement.chargedNanos);
  await appendCharges(tx, organizationId, settlement.balanceNanos, reference, paid, now);
  return settlement;
}

/** The parts of a cost as far as `chargedNanos` pays them, the first in full first. */
function paidParts(items: ChargeItem[], chargedNanos: number): ChargeItem[] {
  const paid = allocateCharge(
    items.map((item) => item.amountNanos),
    chargedNanos,
  );
  return items.map((item, index) => ({ amountNanos: paid[index] ?? 0, memo: item.memo }));
}

function settleValues(charge: Charge): SettleValues {
  const { reservation } = charge;
  return {
    reservationId: reservation.id,
    organizationId: reservation.organizationId,
    holdNanos: reservation.amountNanos,
    actualNanos: charge.actualNanos,
    reference: charge.reference,
    items: charge.items,
    now: charge.now,
    usage: charge.usage ?? null,
  };
}
