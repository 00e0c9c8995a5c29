import { sql } from "kysely";
import type { Db } from "../db/database.js";
import type { LedgerKind } from "../db/schema.js";
import { insufficientCredits, notFound } from "../errors.js";
import { type Clock, unixSeconds } from "../util/clock.js";
import { newId } from "../util/ids.js";
import { type Charge, chargeOf } from "./holds/charge.js";
import { CreditLeases } from "./holds/leased/credit-leases.js";
import { holdsUnder, orphanedHolds } from "./holds/stored/find-holds.js";
import { releaseHold, releaseRows } from "./holds/stored/release-hold.js";
import { lockedBalance } from "./holds/stored/row-locks.js";
import {
  settleInOneStatement,
  settleInTransaction,
  settlesInOneStatement,
} from "./holds/stored/settle-hold.js";
import { type HoldValues, holdStepByStep, holdWithReservation } from "./holds/stored/take-hold.js";
import { holdKeySpend, keySpendLimitReached } from "./key-spend.js";
import { appendEntry } from "./ledger-entries.js";
import {
  assertAmount,
  type EntryDetails,
  HoldNotOpen,
  type Reservation,
  type SettleDetails,
  type Settlement,
} from "./ledger-types.js";
import { spendableNanos } from "./spendable.js";

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
   * `whileHeld`). The rule is the same for every hold; where the hold's money is, and what the
   * call asks, choose one of the ways below.
   */
  async settle(
    reservation: Reservation,
    actualNanos: number,
    details: SettleDetails = {},
    db: Db = this.db,
  ): Promise<Settlement> {
    const charge = chargeOf(reservation, actualNanos, details, this.now());
    const way = this.settleWays[settleWay(charge, db)];
    return way(charge, db, details.whileHeld === true);
  }

  /** Each way's settler; a hold found no longer open is charged nothing (chargedNothing). */
  private readonly settleWays: Record<SettleWay, Settler> = {
    lease: (charge, db) => {
      if (charge.once || db !== this.db) {
        throw new Error("a leased hold settles on its own, and not as a single-use charge");
      }
      return this.leases.settle(charge);
    },
    "one statement": async (charge, db, whileHeld) =>
      (await settleInOneStatement(db, charge)) ??
      this.chargedNothing(charge.reservation, whileHeld, () =>
        this.balance(charge.reservation.organizationId, db),
      ),
    transaction: (charge, db, whileHeld) =>
      db.transaction(
        async (tx) =>
          (await settleInTransaction(tx, charge)) ??
          // Read under the transaction's lock.
          this.chargedNothing(charge.reservation, whileHeld, () =>
            lockedBalance(tx, charge.reservation.organizationId),
          ),
      ),
  };

  /**
   * A settlement that charged nothing (the hold was already settled or released, or its one
   * charge already made). Work that records its result in the same transaction (`whileHeld`)
   * must not record it, so for that it throws instead.
   */
  private async chargedNothing(
    reservation: Reservation,
    whileHeld: boolean,
    balance: () => Promise<number>,
  ): Promise<Settlement> {
    if (whileHeld) throw new HoldNotOpen(reservation.id);
    return { chargedNanos: 0, balanceNanos: await balance() };
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

/**
 * The ways a hold settles: from this process's lease in memory, as one statement that is its own
 * transaction (see settlesInOneStatement), or in a transaction with the steps around the charge
 * its hold needs (a single-use reference, a key's spend limit).
 */
type SettleWay = "lease" | "one statement" | "transaction";

type Settler = (charge: Charge, db: Db, whileHeld: boolean) => Promise<Settlement>;

function settleWay(charge: Charge, db: Db): SettleWay {
  if (charge.reservation.leaseId !== undefined) return "lease";
  return settlesInOneStatement(charge, db) ? "one statement" : "transaction";
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
