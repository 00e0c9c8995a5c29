import { sql } from "kysely";
import type { Db } from "../db/database.js";
import type { LedgerKind } from "../db/schema.js";
import { claimOnce } from "../db/single-use.js";
import { insufficientCredits, notFound } from "../errors.js";
import { type Clock, unixSeconds } from "../util/clock.js";
import { newId } from "../util/ids.js";
import { CreditLeases } from "./holds/leased/credit-leases.js";
import { claimAndChargeCovered, type SettleValues } from "./holds/stored/charge-covered.js";
import { chargeWhatRemains } from "./holds/stored/charge-what-remains.js";
import { holdsUnder, orphanedHolds } from "./holds/stored/find-holds.js";
import { releaseHold, releaseRows } from "./holds/stored/release-hold.js";
import { lockedBalance, lockIfHeld } from "./holds/stored/row-locks.js";
import { type HoldValues, holdStepByStep, holdWithReservation } from "./holds/stored/take-hold.js";
import { holdKeySpend, keyRoom, keySpendLimitReached, moveKeySpend } from "./key-spend.js";
import { appendCharges, appendEntry } from "./ledger-entries.js";
import {
  allocateCharge,
  type ChargeItem,
  type EntryDetails,
  HoldNotOpen,
  type Reservation,
  type SettleDetails,
  type Settlement,
} from "./ledger-types.js";
import { spendableNanos } from "./spendable.js";
import { insertUsageRecord, type UsageDetails } from "./usage-records.js";

export type {
  ChargeItem,
  EntryDetails,
  Reservation,
  SettleDetails,
  Settlement,
} from "./ledger-types.js";
export { allocateCharge, HoldNotOpen } from "./ledger-types.js";

export interface HeldReservation extends Reservation {
  reference: string | null;
}

/**
 * Prepaid credits. `organizations.balance_nanos` is what is spendable now, less open
 * reservations: the holds of work in progress and processes' leases (see CreditLeases), whose
 * unspent part still counts as the organization's money. Every movement of money is an append-only ledger entry written in the
 * same transaction as the balance change, and a conditional update keeps the balance ≥ 0 however
 * many requests or processes race.
 *
 * Every method takes an optional `db`: pass a transaction's scope to make the movement part of
 * that transaction. Holds are stamped with the owning process, so that the holds of a process
 * that died are returned by a live one (see HoldKeeper).
 */
export class Ledger {
  private readonly leases: CreditLeases;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    /** The process this ledger's holds belong to. */
    readonly owner: string,
  ) {
    this.leases = new CreditLeases(db, clock, owner);
  }

  /** What the organization may spend: its balance, with what its leases have not spent. */
  async balance(organizationId: string, db: Db = this.db): Promise<number> {
    const spendable = await spendableNanos(db, organizationId);
    if (spendable === null) throw notFound("organization", organizationId);
    return spendable;
  }

  /**
   * Holds `maxNanos` for one request made on its own (not a batch line, not by a key with a
   * spend limit): from this process's lease when the balance can fund one, so that the hold and
   * its settlement write nothing until the charge itself; else from the balance, as `reserve`.
   */
  async holdForRequest(
    organizationId: string,
    maxNanos: number,
    reference: string | null,
  ): Promise<Reservation> {
    assertAmount(maxNanos);
    return (
      (await this.leases.hold(organizationId, maxNanos, reference)) ??
      (await this.reserve(organizationId, maxNanos, reference))
    );
  }

  /** Writes pending charges and gives this process's leases back; run before the database closes. */
  async close(): Promise<void> {
    await this.leases.close();
  }

  /** Adds money (top-up, refund, positive adjustment) and returns the new balance. */
  async credit(
    organizationId: string,
    amountNanos: number,
    kind: Exclude<LedgerKind, "charge">,
    details: EntryDetails = {},
    db: Db = this.db,
  ): Promise<number> {
    assertAmount(amountNanos);
    return db.transaction(async (tx) => {
      const changed = await tx.changes(sql`
        update organizations set balance_nanos = balance_nanos + ${amountNanos}
        where id = ${organizationId}`);
      if (changed === 0) throw notFound("organization", organizationId);
      const balance = (await spendableNanos(tx, organizationId)) as number;
      await appendEntry(tx, organizationId, kind, amountNanos, balance, details, this.now());
      return balance;
    });
  }

  /**
   * Holds `maxNanos` for a piece of work, or throws insufficient_credits. With `spendKeyId` the
   * hold also counts against that key's spend limit, or throws key_spend_limit_reached.
   */
  async reserve(
    organizationId: string,
    maxNanos: number,
    reference: string | null = null,
    db: Db = this.db,
    spendKeyId: string | null = null,
  ): Promise<Reservation> {
    assertAmount(maxNanos);
    const hold: HoldValues = {
      reservationId: newId("res_"),
      organizationId,
      maxNanos,
      reference,
      owner: this.owner,
      now: this.now(),
      apiKeyId: spendKeyId,
    };
    // A hold of its own commits without waiting for the disk (see holdWithReservation); one in
    // a caller's transaction commits as that transaction does.
    const held =
      spendKeyId !== null
        ? await db.transaction((tx) => holdForKey(tx, hold, spendKeyId))
        : db.dialect === "postgres"
          ? await db.changes(holdWithReservation(hold, !db.inTransaction))
          : await db.transaction((tx) => holdStepByStep(tx, hold));
    if (held === 0) throw insufficientCredits(maxNanos);
    return { id: hold.reservationId, organizationId, amountNanos: maxNanos, spendKeyId };
  }

  /**
   * Charges the real cost and returns the rest of the hold. A cost above the hold (an estimate
   * that fell short) is charged only as far as the balance reaches, never below zero. Settling
   * twice charges once; settling a released hold charges nothing (or throws HoldNotOpen, see
   * `whileHeld`).
   */
  async settle(
    reservation: Reservation,
    actualNanos: number,
    details: SettleDetails = {},
    db: Db = this.db,
  ): Promise<Settlement> {
    assertAmount(actualNanos);
    const reference = details.reference ?? null;
    const items = chargeItems(actualNanos, details);
    if (reservation.leaseId !== undefined) {
      if (details.once || db !== this.db) {
        throw new Error("a leased hold settles on its own, and not as a single-use charge");
      }
      return this.leases.settle(reservation, actualNanos, {
        reference,
        items,
        usage: details.usage,
      });
    }
    if (settlesInOneStatement(db, reservation, actualNanos, details)) {
      const outcome = await claimAndChargeCovered(
        db,
        this.settleValues(reservation, actualNanos, reference, items, details.usage),
      );
      if (outcome === "not claimed") return this.chargedNothing(db, reservation, details, false);
      if (outcome === "not covered") throw new Error("a cost within its hold was not covered");
      return outcome;
    }
    return db.transaction(async (tx) => {
      if (details.once && reference !== null) {
        // The reference is claimed only for a hold that is still open: a released hold must not
        // use up the one charge its work may make.
        if (!(await lockIfHeld(tx, reservation.id))) {
          return this.chargedNothing(tx, reservation, details, true);
        }
        const first = await claimOnce(
          tx,
          chargeScope(reservation.organizationId),
          reference,
          this.now(),
        );
        if (!first) {
          await releaseHold(tx, reservation, this.now());
          return this.chargedNothing(tx, reservation, details, true);
        }
      }
      const charge = await this.withinKeyLimit(tx, reservation, actualNanos, items);
      const settlement =
        charge &&
        (await this.chargeHold(
          tx,
          reservation,
          charge.nanos,
          reference,
          charge.items,
          details.usage,
        ));
      if (!settlement) return this.chargedNothing(tx, reservation, details, true);
      if (reservation.spendKeyId) {
        await tx.changes(
          moveKeySpend(reservation.spendKeyId, settlement.chargedNanos - reservation.amountNanos),
        );
      }
      return settlement;
    });
  }

  /**
   * A settlement that charged nothing (the hold was already settled or released, or its one
   * charge already made). Work that records its result in the same transaction (`whileHeld`)
   * must not record it, so for that it throws instead. `locked`: inside a transaction, whose
   * lock the balance is read under.
   */
  private async chargedNothing(
    db: Db,
    reservation: Reservation,
    details: SettleDetails,
    locked: boolean,
  ): Promise<Settlement> {
    if (details.whileHeld) throw new HoldNotOpen(reservation.id);
    const balanceNanos = locked
      ? await lockedBalance(db, reservation.organizationId)
      : await this.balance(reservation.organizationId, db);
    return { chargedNanos: 0, balanceNanos };
  }

  /**
   * The cost cut to what the hold's key may still spend, like the balance cuts it; null when the
   * hold is no longer open. Locks the reservation before the key (see key-spend.ts).
   */
  private async withinKeyLimit(
    tx: Db,
    reservation: Reservation,
    actualNanos: number,
    items: ChargeItem[],
  ): Promise<{ nanos: number; items: ChargeItem[] } | null> {
    const keyId = reservation.spendKeyId;
    if (!keyId) return { nanos: actualNanos, items };
    if (!(await lockIfHeld(tx, reservation.id))) return null;
    const room = await keyRoom(tx, keyId, reservation.amountNanos);
    if (room === null || actualNanos <= room) return { nanos: actualNanos, items };
    const nanos = Math.max(0, room);
    const paid = allocateCharge(
      items.map((item) => item.amountNanos),
      nanos,
    );
    return {
      nanos,
      // Object.assign, not a spread: see prepareCompletion (completions/plan.ts).
      items: items.map((item, index) => Object.assign({}, item, { amountNanos: paid[index] ?? 0 })),
    };
  }

  /**
   * Charges a hold (as far as the balance reaches) and records its usage; null when it was no
   * longer held.
   */
  private async chargeHold(
    tx: Db,
    reservation: Reservation,
    actualNanos: number,
    reference: string | null,
    items: ChargeItem[],
    usage: UsageDetails | undefined,
  ): Promise<Settlement | null> {
    const outcome = await claimAndChargeCovered(
      tx,
      this.settleValues(reservation, actualNanos, reference, items, usage),
    );
    if (outcome === "not claimed") return null;
    if (outcome !== "not covered") return outcome;
    const settlement = await chargeWhatRemains(tx, reservation, actualNanos);
    if (usage) {
      const costNanos = settlement.chargedNanos;
      await tx.changes(insertUsageRecord(reservation.organizationId, usage, costNanos, this.now()));
    }
    const paid = allocateCharge(
      items.map((item) => item.amountNanos),
      settlement.chargedNanos,
    );
    await appendCharges(
      tx,
      reservation.organizationId,
      settlement.balanceNanos,
      reference,
      items.map((item, index) => ({ amountNanos: paid[index] ?? 0, memo: item.memo })),
      this.now(),
    );
    return settlement;
  }

  private settleValues(
    reservation: Reservation,
    actualNanos: number,
    reference: string | null,
    items: ChargeItem[],
    usage: UsageDetails | undefined,
  ): SettleValues {
    return {
      reservationId: reservation.id,
      organizationId: reservation.organizationId,
      holdNanos: reservation.amountNanos,
      actualNanos,
      reference,
      items,
      now: this.now(),
      usage: usage ?? null,
    };
  }

  /** Returns the whole hold (the work failed or never started). Releasing twice is a no-op. */
  async release(reservation: Reservation, db: Db = this.db): Promise<void> {
    if (reservation.leaseId !== undefined) {
      this.leases.release(reservation);
      return;
    }
    await db.transaction((tx) => releaseHold(tx, reservation, this.now()));
  }

  /** Releases the open holds of an organization's work under these references. */
  async releaseByReference(
    organizationId: string,
    references: string[],
    db: Db = this.db,
  ): Promise<number> {
    if (references.length === 0) return 0;
    return db.transaction(async (tx) => {
      const held = await holdsUnder(tx, organizationId, references);
      return releaseRows(tx, held, this.now());
    });
  }

  /**
   * Locks the open holds under `references` until the transaction ends, for work that changes a
   * hold's line before the hold: taken first, in the order a charge takes them, the two cannot
   * deadlock. SQLite's write lock already serialises writers.
   */
  async lockHolds(organizationId: string, references: string[], tx: Db): Promise<void> {
    if (tx.dialect !== "postgres" || references.length === 0) return;
    await tx.query
      .selectFrom("reservations")
      .select("id")
      .where("status", "=", "held")
      .where("organization_id", "=", organizationId)
      .where("reference", "in", references)
      .orderBy("id")
      .forUpdate()
      .execute();
  }

  /**
   * Releases the holds of processes not seen alive since `aliveSince` (Unix seconds), and holds
   * without an owner older than that: work whose process died can no longer settle them.
   */
  async releaseOrphaned(aliveSince: number, db: Db = this.db): Promise<number> {
    return db.transaction(async (tx) =>
      releaseRows(tx, await orphanedHolds(tx, aliveSince), this.now()),
    );
  }

  /**
   * The holds of work still open, for inspection and tests: those in the database, and the
   * leased holds of this process's requests (a lease itself is not a hold of work).
   */
  async held(organizationId: string, db: Db = this.db): Promise<HeldReservation[]> {
    const rows = await db.query
      .selectFrom("reservations")
      .select(["id", "organization_id", "amount_nanos", "reference"])
      .where("status", "=", "held")
      .where("kind", "=", "hold")
      .where("organization_id", "=", organizationId)
      .execute();
    const stored = rows.map((row) => ({
      id: row.id,
      organizationId: row.organization_id,
      amountNanos: row.amount_nanos,
      reference: row.reference,
    }));
    return [...stored, ...this.leases.openHolds(organizationId)];
  }

  async entries(organizationId: string, db: Db = this.db) {
    return db.query
      .selectFrom("ledger_entries")
      .selectAll()
      .where("organization_id", "=", organizationId)
      .orderBy("id")
      .execute();
  }

  private now(): number {
    return unixSeconds(this.clock);
  }
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

/**
 * Whether a settlement can be one statement that is its own transaction (PostgreSQL): outside a
 * caller's transaction, with no key limit or single-use reference to check first, and a cost
 * within the hold, which the hold alone always covers.
 */
function settlesInOneStatement(
  db: Db,
  reservation: Reservation,
  actualNanos: number,
  details: SettleDetails,
): boolean {
  return (
    db.dialect === "postgres" &&
    !db.inTransaction &&
    !reservation.spendKeyId &&
    !(details.once && (details.reference ?? null) !== null) &&
    actualNanos <= reservation.amountNanos
  );
}

/** The single-use scope of an organization's charges. */
function chargeScope(organizationId: string): string {
  return `charge:${organizationId}`;
}

/**
 * A hold that also counts against a key's spend limit: the key first, then the balance, as one
 * transaction that a shortfall of either undoes whole.
 */
async function holdForKey(tx: Db, hold: HoldValues, keyId: string): Promise<number> {
  if ((await tx.changes(holdKeySpend(keyId, hold.maxNanos))) === 0) {
    throw await keySpendLimitReached(tx, keyId, hold.maxNanos);
  }
  const held =
    tx.dialect === "postgres"
      ? await tx.changes(holdWithReservation(hold))
      : await holdStepByStep(tx, hold);
  if (held === 0) throw insufficientCredits(hold.maxNanos);
  return held;
}

function assertAmount(nanos: number): void {
  if (!Number.isSafeInteger(nanos) || nanos < 0) {
    throw new RangeError(`amount must be a non-negative whole number of nano-dollars: ${nanos}`);
  }
}
