import { setImmediate as nextTurn } from "node:timers/promises";
import type { Db } from "../../../db/database.js";
import { type Clock, unixSeconds } from "../../../util/clock.js";
import { newId } from "../../../util/ids.js";
import {
  allocateCharge,
  type ChargeItem,
  type Reservation,
  type Settlement,
} from "../../ledger-types.js";
import { spendableNanos } from "../../spendable.js";
import type { UsageDetails } from "../../usage-records.js";
import type { Charge } from "../charge.js";
import { chargeBalance } from "./charge-balance.js";
import { chargeLease, chargeLeaseAtOnce } from "./charge-lease.js";
import {
  type ChargeEntry,
  insertChargeEntries,
  insertUsageRows,
  type UsageRow,
} from "./charge-records.js";
import { closeLease } from "./close-lease.js";
import { giveBackFromLease } from "./give-back-from-lease.js";
import { takeForLease } from "./take-for-lease.js";

/** The first lease of an organization covers this many holds like the one that asked for it. */
const FIRST_LEASE_HOLDS = 32;
/** A lease that grows again within this long doubles what it takes, so busy leases grow fast. */
const GROWTH_WINDOW_MS = 1_000;
/** A lease without a new hold for this long goes back to the balance. */
const IDLE_MS = 2_000;
/** Growths one hold may start while racing holds keep taking what the lease grew by. */
const MAX_GROWTHS_PER_HOLD = 8;

interface Lease {
  id: string;
  organizationId: string;
  /** Leased money that no hold has taken: what new holds come out of. */
  freeNanos: number;
  /** Holds open on the lease and charges of it not yet written; the lease stays while any do. */
  inUse: number;
  lastHoldAt: number;
  grownAt: number;
  lastGrowthNanos: number;
}

interface LeasedHold {
  leaseId: string;
  organizationId: string;
  amountNanos: number;
  reference: string | null;
}

/** A leased hold's settlement waiting to be written. */
interface PendingCharge {
  reference: string | null;
  /** The parts of the cost, adding up to it. */
  items: ChargeItem[];
  usage: UsageDetails | undefined;
  organizationId: string;
  leaseId: string;
  /** Paid out of the lease (the hold, and the lease's free money when the cost outran it). */
  coveredNanos: number;
  /** The rest of the cost: charged from the balance as far as it reaches. */
  shortNanos: number;
  resolve(settlement: Settlement): void;
  reject(error: unknown): void;
}

/**
 * Credit holds without a database write. A process leases part of an organization's balance
 * (moved to a lease row, so the balance can still never go below zero however many processes
 * spend) and holds its requests' worst cases from that lease in memory. An organization's
 * settlements are written in groups, one transaction for every charge settled while its previous
 * group was being written, and each settlement resolves once its charge is committed: a reply
 * never reports a cost the database could still lose. On SQLite these transactions commit
 * together with the database's others (sqlite-database.ts): that is the one group commit.
 *
 * Leases grow while requests keep coming, take at most a quarter of the balance at a time, and
 * go back to the balance when idle, when the process closes, or when the balance cannot fund
 * another one (then the caller holds from the balance directly, so one process never refuses a
 * request its own lease could have paid). A dead process's leases are returned by a live one,
 * less what they were charged (see Ledger.releaseOrphaned).
 */
export class CreditLeases {
  private readonly leases = new Map<string, Lease>();
  private readonly growing = new Map<string, Promise<boolean>>();
  private readonly holds = new Map<string, LeasedHold>();
  /** Leases taken out of the map that still have to be closed in the database. */
  private readonly closing = new Map<string, Lease>();
  /** Charges settled and not yet taken by a write, by organization. */
  private readonly pending = new Map<string, PendingCharge[]>();
  /** Each organization's writer while it has charges to write. */
  private readonly writing = new Map<string, Promise<void>>();
  private idleTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly owner: string,
  ) {}

  /**
   * Holds `maxNanos` from this process's lease on the organization's credits, taking or growing
   * the lease as needed; null when the balance cannot fund a lease (the lease's free money is
   * then back in the balance, for the caller to hold from there).
   */
  async hold(
    organizationId: string,
    maxNanos: number,
    reference: string | null,
  ): Promise<Reservation | null> {
    let growths = 0;
    for (;;) {
      const lease = this.leases.get(organizationId);
      const freeNanos = lease?.freeNanos ?? 0;
      if (lease && freeNanos >= maxNanos) return this.holdFrom(lease, maxNanos, reference);
      // Waiting for another hold's growth of the lease is progress: that one moves money.
      const growing = this.growing.get(organizationId);
      if (growing) {
        await growing;
        continue;
      }
      // Growing by the shortfall alone fails only when the lease and the balance together
      // cannot cover the hold.
      if (growths === MAX_GROWTHS_PER_HOLD) break;
      growths += 1;
      if (!(await this.grow(organizationId, maxNanos - freeNanos, maxNanos))) break;
    }
    await this.giveBackFree(organizationId);
    return null;
  }

  /** The leased holds of an organization's requests still open in this process. */
  openHolds(organizationId: string): (Reservation & { reference: string | null })[] {
    const open = [];
    for (const [id, hold] of this.holds) {
      if (hold.organizationId !== organizationId) continue;
      open.push({ id, organizationId, amountNanos: hold.amountNanos, reference: hold.reference });
    }
    return open;
  }

  /**
   * Charges a leased hold's real cost once its charge entries and usage record are committed.
   * Settling a hold twice, or after its release, charges nothing.
   */
  async settle(charge: Charge): Promise<Settlement> {
    const { reservation, actualNanos } = charge;
    const hold = this.holds.get(reservation.id);
    if (!hold) {
      const balanceNanos = (await spendableNanos(this.db, reservation.organizationId)) ?? 0;
      return { chargedNanos: 0, balanceNanos };
    }
    this.holds.delete(reservation.id);
    const lease = this.current(hold);
    let coveredNanos = Math.min(actualNanos, hold.amountNanos);
    let shortNanos = actualNanos - coveredNanos;
    if (lease) {
      lease.freeNanos += hold.amountNanos - coveredNanos;
      const fromLease = Math.min(shortNanos, lease.freeNanos);
      lease.freeNanos -= fromLease;
      coveredNanos += fromLease;
      shortNanos -= fromLease;
    }
    return new Promise<Settlement>((resolve, reject) => {
      const organizationId = hold.organizationId;
      const pending = this.pending.get(organizationId);
      const entry: PendingCharge = {
        reference: charge.reference,
        items: charge.items,
        usage: charge.usage,
        organizationId: hold.organizationId,
        leaseId: hold.leaseId,
        coveredNanos,
        shortNanos,
        resolve,
        reject,
      };
      if (pending) pending.push(entry);
      else this.pending.set(organizationId, [entry]);
      if (!this.writing.has(organizationId)) {
        this.writing.set(organizationId, this.writeAll(organizationId));
      }
    });
  }

  /** Returns a leased hold to its lease (the work failed or never started). */
  release(reservation: Reservation): void {
    const hold = this.holds.get(reservation.id);
    if (!hold) return;
    this.holds.delete(reservation.id);
    const lease = this.current(hold);
    if (!lease) return;
    lease.freeNanos += hold.amountNanos;
    lease.inUse -= 1;
  }

  /** Resolves once every charge settled so far is written (or failed). */
  async flush(): Promise<void> {
    while (this.writing.size > 0) await Promise.all(this.writing.values());
  }

  /** Writes what is pending and gives every lease back; run before the database closes. */
  async close(): Promise<void> {
    if (this.idleTimer) clearInterval(this.idleTimer);
    this.idleTimer = null;
    await this.flush();
    for (const lease of this.leases.values()) this.closing.set(lease.id, lease);
    this.leases.clear();
    await this.closeLeases();
  }

  private holdFrom(lease: Lease, maxNanos: number, reference: string | null): Reservation {
    lease.freeNanos -= maxNanos;
    lease.inUse += 1;
    lease.lastHoldAt = this.clock.now();
    const id = newId("lh_");
    this.holds.set(id, {
      leaseId: lease.id,
      organizationId: lease.organizationId,
      amountNanos: maxNanos,
      reference,
    });
    return { id, organizationId: lease.organizationId, amountNanos: maxNanos, leaseId: lease.id };
  }

  /** The hold's lease while it is still this process's lease for the organization. */
  private current(hold: LeasedHold): Lease | null {
    const lease = this.leases.get(hold.organizationId);
    return lease?.id === hold.leaseId ? lease : null;
  }

  private grow(organizationId: string, shortNanos: number, maxNanos: number): Promise<boolean> {
    const growth = this.takeMore(organizationId, shortNanos, maxNanos).finally(() =>
      this.growing.delete(organizationId),
    );
    this.growing.set(organizationId, growth);
    return growth;
  }

  /** Grows the lease by at least `shortNanos`, sized from holds of `maxNanos`. */
  private async takeMore(
    organizationId: string,
    shortNanos: number,
    maxNanos: number,
  ): Promise<boolean> {
    const now = this.clock.now();
    const lease = this.leases.get(organizationId);
    const recentGrowth = lease && now - lease.grownAt < GROWTH_WINDOW_MS;
    const wantNanos = Math.max(
      maxNanos * FIRST_LEASE_HOLDS,
      recentGrowth ? lease.lastGrowthNanos * 2 : 0,
    );
    const grant = await this.db.transaction((tx) =>
      takeForLease(tx, {
        leaseId: newId("lse_"),
        organizationId,
        openLeaseId: lease?.id ?? null,
        minNanos: shortNanos,
        wantNanos,
        owner: this.owner,
        now: unixSeconds(this.clock),
      }),
    );
    if (!grant) return false;
    let current = this.leases.get(organizationId);
    if (current?.id !== grant.leaseId) {
      // A new lease: none was open, or the open one was returned for this process (it looked
      // dead while the database was away) and its free money went back to the balance.
      current = {
        id: grant.leaseId,
        organizationId,
        freeNanos: 0,
        inUse: 0,
        lastHoldAt: now,
        grownAt: now,
        lastGrowthNanos: 0,
      };
      this.leases.set(organizationId, current);
      this.idleTimer ??= setInterval(() => void this.returnIdle(), IDLE_MS / 2).unref();
    }
    current.freeNanos += grant.takenNanos;
    current.grownAt = now;
    current.lastGrowthNanos = grant.takenNanos;
    return true;
  }

  private async giveBackFree(organizationId: string): Promise<void> {
    const lease = this.leases.get(organizationId);
    if (!lease || lease.freeNanos === 0) return;
    const nanos = lease.freeNanos;
    lease.freeNanos = 0;
    try {
      const open = await this.db.transaction((tx) =>
        giveBackFromLease(tx, lease.id, organizationId, nanos),
      );
      if (!open && this.leases.get(organizationId) === lease) this.leases.delete(organizationId);
    } catch (error) {
      lease.freeNanos += nanos;
      throw error;
    }
  }

  /**
   * Writes an organization's pending charges in groups until none are left: each group is every
   * charge settled while the previous one was being written, in one transaction.
   */
  private async writeAll(organizationId: string): Promise<void> {
    while (this.pending.has(organizationId)) await this.writeGroup(organizationId);
    this.writing.delete(organizationId);
  }

  /** Takes the organization's pending charges for a group to write. */
  private take(organizationId: string): PendingCharge[] {
    const group = this.pending.get(organizationId) ?? [];
    this.pending.delete(organizationId);
    return group;
  }

  /** Writes one group of an organization's charges, and settles or fails their requests. */
  private async writeGroup(organizationId: string): Promise<void> {
    let group: PendingCharge[] = [];
    const take = () => {
      group = this.take(organizationId);
      return group;
    };
    let written: Written;
    try {
      written = await (this.db.dialect === "sqlite"
        ? this.writeOnSqlite(organizationId, take)
        : this.writeOnPostgres(organizationId, take));
    } catch (error) {
      // Nothing of the group was kept; a transaction that could not even start fails the
      // charges it would have taken.
      this.failCharges(group.length > 0 ? group : take(), error);
      return;
    }
    this.applyWritten(group, written);
  }

  /**
   * SQLite: the charges are taken when the transaction starts. The database commits every
   * transaction asked for in one round of I/O together (sqlite-database.ts), each in its own
   * savepoint: the charges settled in that round, of every organization, share one commit, and
   * the reply waits no extra turn of the event loop.
   */
  private writeOnSqlite(organizationId: string, take: () => PendingCharge[]): Promise<Written> {
    return this.db.transaction((tx) =>
      writeCharges(tx, organizationId, take(), unixSeconds(this.clock)),
    );
  }

  /**
   * PostgreSQL: charges settled in this round of I/O join the group, which is one statement when
   * one open lease covers every charge (a round trip), else a transaction.
   */
  private async writeOnPostgres(
    organizationId: string,
    take: () => PendingCharge[],
  ): Promise<Written> {
    await nextTurn();
    const charges = take();
    const now = unixSeconds(this.clock);
    return (
      (await this.writeAtOnce(organizationId, charges, now)) ??
      (await this.db.transaction((tx) => writeCharges(tx, organizationId, charges, now)))
    );
  }

  /** Not charged: the requests fail, and their holds go back to the lease whole. */
  private failCharges(charges: PendingCharge[], error: unknown): void {
    for (const charge of charges) {
      const lease = this.leases.get(charge.organizationId);
      if (lease?.id === charge.leaseId) {
        lease.freeNanos += charge.coveredNanos;
        lease.inUse -= 1;
      }
      charge.reject(error);
    }
  }

  /** Settles the requests of one organization's written charges. */
  private applyWritten(charges: PendingCharge[], written: Written): void {
    charges.forEach((charge, index) => {
      const lease = this.leases.get(charge.organizationId);
      if (lease?.id === charge.leaseId) lease.inUse -= 1;
      charge.resolve(written.settlements[index] as Settlement);
    });
    // A lease closed for this process (it looked dead while the database was away) had its
    // money returned to the balance: new holds need a new lease.
    const organizationId = charges[0]?.organizationId;
    if (organizationId === undefined) return;
    const lease = this.leases.get(organizationId);
    if (lease && written.closedLeases.has(lease.id)) this.leases.delete(organizationId);
  }

  /**
   * On PostgreSQL, the usual group (one open lease covers every charge) in one statement, a
   * round trip; null when the group needs the general path.
   */
  private async writeAtOnce(
    organizationId: string,
    charges: PendingCharge[],
    now: number,
  ): Promise<Written | null> {
    const leaseId = charges[0]?.leaseId;
    if (this.db.dialect !== "postgres" || leaseId === undefined) return null;
    if (charges.some((charge) => charge.leaseId !== leaseId || charge.shortNanos > 0)) return null;
    const charged = charges.map((charge) => charge.coveredNanos);
    const layout = layOut(organizationId, charges, charged);
    const after = await chargeLeaseAtOnce(this.db, {
      organizationId,
      leaseId,
      coveredNanos: charged.reduce((sum, nanos) => sum + nanos, 0),
      entries: layout.entries,
      usages: layout.usages,
      now,
    });
    if (after === null) return null;
    return {
      settlements: layout.settlements.map((settlement) => ({
        chargedNanos: settlement.chargedNanos,
        balanceNanos: after + settlement.balanceNanos,
      })),
      closedLeases: new Set(),
    };
  }

  /** Gives back leases that no request has used for a while. */
  private async returnIdle(): Promise<void> {
    const now = this.clock.now();
    for (const [organizationId, lease] of this.leases) {
      if (lease.inUse > 0 || now - lease.lastHoldAt < IDLE_MS) continue;
      if (this.growing.has(organizationId)) continue;
      this.leases.delete(organizationId);
      this.closing.set(lease.id, lease);
    }
    await this.closeLeases().catch(() => {
      // The database is away: the leases stay listed and are closed on a later round.
    });
  }

  private async closeLeases(): Promise<void> {
    const now = unixSeconds(this.clock);
    for (const [id, lease] of this.closing) {
      await this.db.transaction((tx) => closeLease(tx, id, lease.organizationId, now));
      this.closing.delete(id);
    }
  }
}

/**
 * One organization's charges in one transaction: the leases are charged what they covered (a
 * lease closed meanwhile leaves its part to the balance), the rest comes from the balance as far
 * as it reaches, then the entries and usage records are written with the balance after each.
 */
async function writeCharges(
  tx: Db,
  organizationId: string,
  charges: PendingCharge[],
  now: number,
): Promise<Written> {
  const uncovered = new Set<string>();
  for (const [leaseId, nanos] of coveredByLease(charges)) {
    if (!(await chargeLease(tx, leaseId, nanos))) uncovered.add(leaseId);
  }
  const owed = charges.map((charge) =>
    uncovered.has(charge.leaseId)
      ? { paid: 0, short: charge.coveredNanos + charge.shortNanos }
      : { paid: charge.coveredNanos, short: charge.shortNanos },
  );
  const shortTotal = owed.reduce((sum, part) => sum + part.short, 0);
  let fromBalance = shortTotal > 0 ? await chargeBalance(tx, organizationId, shortTotal) : 0;
  const charged = owed.map((part) => {
    const taken = Math.min(part.short, fromBalance);
    fromBalance -= taken;
    return part.paid + taken;
  });
  const after = (await spendableNanos(tx, organizationId)) ?? 0;
  const layout = layOut(organizationId, charges, charged);
  // Relative balances become absolute now that the balance after the last charge is known.
  for (const entry of layout.entries) entry.balanceAfterNanos += after;
  await insertChargeEntries(tx, layout.entries, now);
  await insertUsageRows(tx, layout.usages, now);
  return {
    settlements: layout.settlements.map((settlement) => ({
      chargedNanos: settlement.chargedNanos,
      balanceNanos: after + settlement.balanceNanos,
    })),
    closedLeases: uncovered,
  };
}

/** What writing a group of charges settled, and the leases found closed under them. */
interface Written {
  settlements: Settlement[];
  closedLeases: Set<string>;
}

/** Charge entries, usage records and settlements, in order, for what each charge was charged. */
interface Layout {
  /** Balances after each entry are stated relative to the balance after the last charge. */
  entries: ChargeEntry[];
  usages: UsageRow[];
  settlements: Settlement[];
}

function layOut(organizationId: string, charges: PendingCharge[], charged: number[]): Layout {
  const layout: Layout = { entries: [], usages: [], settlements: [] };
  // Back to front: each charge's balance after it adds back the charges after it.
  let later = 0;
  for (let index = charges.length - 1; index >= 0; index--) {
    const charge = charges[index] as PendingCharge;
    const chargedNanos = charged[index] as number;
    layout.settlements.push({ chargedNanos, balanceNanos: later });
    const paid = allocateCharge(
      charge.items.map((item) => item.amountNanos),
      chargedNanos,
    );
    for (let item = charge.items.length - 1; item >= 0; item--) {
      const amountNanos = paid[item] ?? 0;
      if (amountNanos === 0) continue;
      layout.entries.push({
        organizationId,
        amountNanos,
        balanceAfterNanos: later,
        reference: charge.reference,
        memo: (charge.items[item] as ChargeItem).memo,
      });
      later += amountNanos;
    }
    if (charge.usage) {
      layout.usages.push({ organizationId, usage: charge.usage, costNanos: chargedNanos });
    }
  }
  layout.entries.reverse();
  layout.usages.reverse();
  layout.settlements.reverse();
  return layout;
}

function coveredByLease(charges: PendingCharge[]): Map<string, number> {
  const covered = new Map<string, number>();
  for (const charge of charges) {
    if (charge.coveredNanos === 0) continue;
    covered.set(charge.leaseId, (covered.get(charge.leaseId) ?? 0) + charge.coveredNanos);
  }
  return covered;
}
