import { type Kysely, sql, type Transaction } from "kysely";
import type { DatabaseHandle, DialectName } from "../db/connect.js";
import type { Database, LedgerKind } from "../db/schema.js";
import { insufficientCredits, notFound } from "../errors.js";
import { type Clock, unixSeconds } from "../util/clock.js";
import { newId } from "../util/ids.js";

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
 * The statements every completion runs (hold, settle) are written as SQL templates: building and
 * compiling them with the query builder cost more CPU than running them on SQLite.
 */
export class Ledger {
  private readonly db: Kysely<Database>;
  private readonly dialect: DialectName;

  constructor(
    handle: DatabaseHandle,
    private readonly clock: Clock,
  ) {
    this.db = handle.db;
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
    return this.db.transaction().execute(async (tx) => {
      const row = await tx
        .updateTable("organizations")
        .set((eb) => ({ balance_nanos: eb("balance_nanos", "+", amountNanos) }))
        .where("id", "=", organizationId)
        .returning("balance_nanos")
        .executeTakeFirst();
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
    const id = newId("res_");
    await this.db.transaction().execute(async (tx) => {
      const held = await sql<{ balance_nanos: number }>`
        update organizations set balance_nanos = balance_nanos - ${maxNanos}
        where id = ${organizationId} and balance_nanos >= ${maxNanos}
        returning balance_nanos`.execute(tx);
      if (held.rows.length === 0) throw insufficientCredits();
      await sql`
        insert into reservations
          (id, organization_id, amount_nanos, status, charged_nanos, reference, created_at, finished_at)
        values (${id}, ${organizationId}, ${maxNanos}, 'held', null, ${reference},
          ${unixSeconds(this.clock)}, null)`.execute(tx);
    });
    return { id, organizationId, amountNanos: maxNanos };
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
    return this.db.transaction().execute(async (tx) => {
      // Claiming the reservation first takes the write lock (SQLite) / row lock (PostgreSQL).
      const claimed = await this.finishReservation(tx, reservation.id, "settled", actualNanos);
      if (!claimed) {
        return { chargedNanos: 0, balanceNanos: await this.lockedBalance(tx, reservation) };
      }
      const hold = reservation.amountNanos;
      // Usually the hold (plus whatever else is spendable) covers the cost: one conditional update.
      const covered = await sql<{ balance_nanos: number }>`
        update organizations set balance_nanos = balance_nanos + ${hold - actualNanos}
        where id = ${reservation.organizationId} and balance_nanos >= ${actualNanos - hold}
        returning balance_nanos`.execute(tx);
      const balanceAfter = covered.rows[0]?.balance_nanos;
      const settlement =
        balanceAfter !== undefined
          ? { chargedNanos: actualNanos, balanceNanos: balanceAfter }
          : await this.chargeWhatRemains(tx, reservation);
      if (settlement.chargedNanos > 0) {
        await this.appendEntry(
          tx,
          reservation.organizationId,
          "charge",
          -settlement.chargedNanos,
          settlement.balanceNanos,
          { reference: details.reference ?? null, memo: details.memo ?? null },
        );
      }
      return settlement;
    });
  }

  /** The cost outran the hold and the balance: charge everything there is, down to zero. */
  private async chargeWhatRemains(
    tx: Transaction<Database>,
    reservation: Reservation,
  ): Promise<Settlement> {
    const charged = (await this.lockedBalance(tx, reservation)) + reservation.amountNanos;
    await tx
      .updateTable("organizations")
      .set({ balance_nanos: 0 })
      .where("id", "=", reservation.organizationId)
      .execute();
    await tx
      .updateTable("reservations")
      .set({ charged_nanos: charged })
      .where("id", "=", reservation.id)
      .execute();
    return { chargedNanos: charged, balanceNanos: 0 };
  }

  /** Returns the whole hold (the work failed or never started). Releasing twice is a no-op. */
  async release(reservation: Reservation): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      const claimed = await this.finishReservation(tx, reservation.id, "released");
      if (!claimed) return;
      await tx
        .updateTable("organizations")
        .set((eb) => ({ balance_nanos: eb("balance_nanos", "+", reservation.amountNanos) }))
        .where("id", "=", reservation.organizationId)
        .execute();
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
    tx: Transaction<Database>,
    reservationId: string,
    status: "settled" | "released",
    chargedNanos: number | null = null,
  ): Promise<boolean> {
    const result = await sql`
      update reservations
      set status = ${status}, finished_at = ${unixSeconds(this.clock)}, charged_nanos = ${chargedNanos}
      where id = ${reservationId} and status = 'held'`.execute(tx);
    return (result.numAffectedRows ?? 0n) > 0n;
  }

  private async lockedBalance(tx: Transaction<Database>, reservation: Reservation) {
    const row = await tx
      .selectFrom("organizations")
      .select("balance_nanos")
      .where("id", "=", reservation.organizationId)
      .$if(this.dialect === "postgres", (q) => q.forUpdate())
      .executeTakeFirstOrThrow();
    return row.balance_nanos;
  }

  private async appendEntry(
    tx: Transaction<Database>,
    organizationId: string,
    kind: LedgerKind,
    amountNanos: number,
    balanceAfterNanos: number,
    details: EntryDetails,
  ): Promise<void> {
    const { reference = null, memo = null } = details;
    await sql`
      insert into ledger_entries
        (organization_id, kind, amount_nanos, balance_after_nanos, reference, memo, created_at)
      values (${organizationId}, ${kind}, ${amountNanos}, ${balanceAfterNanos}, ${reference},
        ${memo}, ${unixSeconds(this.clock)})`.execute(tx);
  }
}

function assertAmount(nanos: number): void {
  if (!Number.isSafeInteger(nanos) || nanos < 0) {
    throw new RangeError(`amount must be a non-negative whole number of nano-dollars: ${nanos}`);
  }
}
