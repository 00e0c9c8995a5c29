import { type Kysely, sql } from "kysely";
import type { DatabaseHandle, DialectName } from "../db/connect.js";
import type { Database, LedgerKind } from "../db/schema.js";
import type { StatementDatabase, Statements } from "../db/statements.js";
import { insufficientCredits, notFound } from "../errors.js";
import { type Clock, unixSeconds } from "../util/clock.js";
import { newId } from "../util/ids.js";
import {
  claimAndChargeCovered,
  type HoldValues,
  holdWithReservation,
} from "./postgres-ledger-statements.js";

export interface Reservation {
  id: string;
  organizationId: string;
  amountNanos: number;
}

export interface EntryDetails {
  reference?: string | null;
  memo?: string | null;
}

export interface Settlement {
  chargedNanos: number;
  balanceNanos: number;
}

/**
 * Prepaid credits. `organizations.balance_nanos` is what is spendable now: money in the ledger
 * minus open reservations. Every movement of money is an append-only ledger entry written in the
 * same transaction as the balance change, and a conditional update keeps the balance ≥ 0 however
 * many requests or processes race.
 *
 * Every movement runs as hand-written statements (see db/statements.ts): holds and settlements
 * run on every completion, where the query builder cost more CPU than SQLite itself.
 */
export class Ledger {
  private readonly db: Kysely<Database>;
  private readonly statements: StatementDatabase;
  private readonly dialect: DialectName;

  constructor(
    handle: DatabaseHandle,
    private readonly clock: Clock,
  ) {
    this.db = handle.db;
    this.statements = handle.statements;
    this.dialect = handle.dialect;
  }

  async balance(organizationId: string): Promise<number> {
    const row = await this.db
      .selectFrom("organizations")
      .select("balance_nanos")
      .where("id", "=", organizationId)
      .executeTakeFirst();
    if (!row) throw notFound("organization", organizationId);
    return row.balance_nanos;
  }

  /** Adds money (top-up, refund, positive adjustment) and returns the new balance. */
  async credit(
    organizationId: string,
    amountNanos: number,
    kind: Exclude<LedgerKind, "charge">,
    details: EntryDetails = {},
  ): Promise<number> {
    assertAmount(amountNanos);
    return this.statements.transaction(async (tx) => {
      const [row] = await tx.rows<{ balance_nanos: number }>(sql`
        update organizations set balance_nanos = balance_nanos + ${amountNanos}
        where id = ${organizationId}
        returning balance_nanos`);
      if (!row) throw notFound("organization", organizationId);
      await this.appendEntry(tx, organizationId, kind, amountNanos, row.balance_nanos, details);
      return row.balance_nanos;
    });
  }

  /** Holds `maxNanos` for a piece of work, or throws insufficient_credits. */
  async reserve(
    organizationId: string,
    maxNanos: number,
    reference: string | null = null,
  ): Promise<Reservation> {
    assertAmount(maxNanos);
    const hold: HoldValues = {
      reservationId: newId("res_"),
      organizationId,
      maxNanos,
      reference,
      now: unixSeconds(this.clock),
    };
    const held =
      this.dialect === "postgres"
        ? await this.statements.changes(holdWithReservation(hold))
        : await this.statements.transaction((tx) => holdStepByStep(tx, hold));
    if (held === 0) throw insufficientCredits();
    return { id: hold.reservationId, organizationId, amountNanos: maxNanos };
  }

  /**
   * Charges the real cost and returns the rest of the hold. A cost above the hold (an estimate
   * that fell short) is charged only as far as the balance reaches, never below zero. Settling
   * twice charges once.
   */
  async settle(
    reservation: Reservation,
    actualNanos: number,
    details: EntryDetails = {},
  ): Promise<Settlement> {
    assertAmount(actualNanos);
    const entry = { reference: details.reference ?? null, memo: details.memo ?? null };
    return this.statements.transaction(async (tx) => {
      const outcome = await this.claimAndChargeCovered(tx, reservation, actualNanos, entry);
      if (outcome === "not claimed") {
        return { chargedNanos: 0, balanceNanos: await this.lockedBalance(tx, reservation) };
      }
      if (outcome !== "not covered") return outcome;
      const settlement = await this.chargeWhatRemains(tx, reservation);
      if (settlement.chargedNanos > 0) {
        await this.appendEntry(
          tx,
          reservation.organizationId,
          "charge",
          -settlement.chargedNanos,
          settlement.balanceNanos,
          entry,
        );
      }
      return settlement;
    });
  }

  /**
   * Claims the reservation (which takes the write lock on SQLite, the row lock on PostgreSQL)
   * and, in the usual case where the hold plus whatever else is spendable covers the cost,
   * charges it with one conditional update and records the charge.
   */
  private async claimAndChargeCovered(
    tx: Statements,
    reservation: Reservation,
    actualNanos: number,
    entry: { reference: string | null; memo: string | null },
  ): Promise<Settlement | "not claimed" | "not covered"> {
    const now = unixSeconds(this.clock);
    if (this.dialect === "postgres") {
      const [outcome] = await tx.rows(
        claimAndChargeCovered({
          reservationId: reservation.id,
          organizationId: reservation.organizationId,
          holdNanos: reservation.amountNanos,
          actualNanos,
          now,
          ...entry,
        }),
      );
      if (!outcome?.claimed) return "not claimed";
      if (outcome.balance_nanos === null) return "not covered";
      return { chargedNanos: actualNanos, balanceNanos: outcome.balance_nanos };
    }
    const claimed = await this.finishReservation(tx, reservation.id, "settled", actualNanos);
    if (!claimed) return "not claimed";
    const hold = reservation.amountNanos;
    const [covered] = await tx.rows<{ balance_nanos: number }>(sql`
      update organizations set balance_nanos = balance_nanos + ${hold - actualNanos}
      where id = ${reservation.organizationId} and balance_nanos >= ${actualNanos - hold}
      returning balance_nanos`);
    if (!covered) return "not covered";
    if (actualNanos > 0) {
      await this.appendEntry(
        tx,
        reservation.organizationId,
        "charge",
        -actualNanos,
        covered.balance_nanos,
        entry,
      );
    }
    return { chargedNanos: actualNanos, balanceNanos: covered.balance_nanos };
  }

  /** The cost outran the hold and the balance: charge everything there is, down to zero. */
  private async chargeWhatRemains(tx: Statements, reservation: Reservation): Promise<Settlement> {
    const charged = (await this.lockedBalance(tx, reservation)) + reservation.amountNanos;
    await tx.changes(
      sql`update organizations set balance_nanos = 0 where id = ${reservation.organizationId}`,
    );
    await tx.changes(
      sql`update reservations set charged_nanos = ${charged} where id = ${reservation.id}`,
    );
    return { chargedNanos: charged, balanceNanos: 0 };
  }

  /** Returns the whole hold (the work failed or never started). Releasing twice is a no-op. */
  async release(reservation: Reservation): Promise<void> {
    await this.statements.transaction(async (tx) => {
      const claimed = await this.finishReservation(tx, reservation.id, "released");
      if (!claimed) return;
      await tx.changes(sql`
        update organizations set balance_nanos = balance_nanos + ${reservation.amountNanos}
        where id = ${reservation.organizationId}`);
    });
  }

  /** Releases holds left behind by a process that died mid-request. */
  async releaseStale(olderThanSeconds: number): Promise<number> {
    const cutoff = unixSeconds(this.clock) - olderThanSeconds;
    const stale = await this.db
      .selectFrom("reservations")
      .select(["id", "organization_id", "amount_nanos"])
      .where("status", "=", "held")
      .where("created_at", "<", cutoff)
      .execute();
    for (const row of stale) {
      await this.release({
        id: row.id,
        organizationId: row.organization_id,
        amountNanos: row.amount_nanos,
      });
    }
    return stale.length;
  }

  /** Whether a charge was recorded under `reference` for the organization. */
  async hasCharge(organizationId: string, reference: string): Promise<boolean> {
    const row = await this.db
      .selectFrom("ledger_entries")
      .select("id")
      .where("reference", "=", reference)
      .where("organization_id", "=", organizationId)
      .where("kind", "=", "charge")
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  async entries(organizationId: string) {
    return this.db
      .selectFrom("ledger_entries")
      .selectAll()
      .where("organization_id", "=", organizationId)
      .orderBy("id")
      .execute();
  }

  private async finishReservation(
    tx: Statements,
    reservationId: string,
    status: "settled" | "released",
    chargedNanos: number | null = null,
  ): Promise<boolean> {
    const changed = await tx.changes(sql`
      update reservations
      set status = ${status}, finished_at = ${unixSeconds(this.clock)}, charged_nanos = ${chargedNanos}
      where id = ${reservationId} and status = 'held'`);
    return changed > 0;
  }

  private async lockedBalance(tx: Statements, reservation: Reservation): Promise<number> {
    // SQLite has no row locks: the transaction's write lock already serialises writers.
    const lock = this.dialect === "postgres" ? sql` for update` : sql``;
    const [row] = await tx.rows<{ balance_nanos: number }>(sql`
      select balance_nanos from organizations where id = ${reservation.organizationId}${lock}`);
    if (!row) throw notFound("organization", reservation.organizationId);
    return row.balance_nanos;
  }

  private async appendEntry(
    tx: Statements,
    organizationId: string,
    kind: LedgerKind,
    amountNanos: number,
    balanceAfterNanos: number,
    details: EntryDetails,
  ): Promise<void> {
    const { reference = null, memo = null } = details;
    await tx.changes(sql`
      insert into ledger_entries
        (organization_id, kind, amount_nanos, balance_after_nanos, reference, memo, created_at)
      values (${organizationId}, ${kind}, ${amountNanos}, ${balanceAfterNanos}, ${reference},
        ${memo}, ${unixSeconds(this.clock)})`);
  }
}

/** The hold as two statements in one transaction; returns 0 when the balance is short. */
async function holdStepByStep(tx: Statements, hold: HoldValues): Promise<number> {
  const taken = await tx.changes(sql`
    update organizations set balance_nanos = balance_nanos - ${hold.maxNanos}
    where id = ${hold.organizationId} and balance_nanos >= ${hold.maxNanos}`);
  if (taken === 0) return 0;
  return tx.changes(sql`
    insert into reservations
      (id, organization_id, amount_nanos, status, charged_nanos, reference, created_at, finished_at)
    values (${hold.reservationId}, ${hold.organizationId}, ${hold.maxNanos}, 'held', null,
      ${hold.reference}, ${hold.now}, null)`);
}

function assertAmount(nanos: number): void {
  if (!Number.isSafeInteger(nanos) || nanos < 0) {
    throw new RangeError(`amount must be a non-negative whole number of nano-dollars: ${nanos}`);
  }
}
