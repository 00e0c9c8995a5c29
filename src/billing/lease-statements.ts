import { sql } from "kysely";
import type { Db, Statements } from "../db/database.js";
import type { PlainStatement } from "../db/plain-statement.js";
import type { ChargeEntry, UsageRow } from "./charge-records.js";

/*
 * The database side of credit leases (see CreditLeases): money moves between an organization's
 * balance and a lease row in `reservations` (kind 'lease'), whose `amount_nanos` is what the
 * lease took and `charged_nanos` what its requests were charged; the rest belongs to the lease's
 * process until it gives it back, or until a live process returns the lease of a dead one.
 */

export interface LeaseTake {
  leaseId: string;
  organizationId: string;
  /** A lease of this process that may still be open, to grow; null opens a new one. */
  openLeaseId: string | null;
  /** Nothing is taken unless the balance covers at least this. */
  minNanos: number;
  /** What the lease would like; cut to a quarter of the balance, never below `minNanos`. */
  wantNanos: number;
  owner: string;
  now: number;
}

/** The lease that received the money (the open one, or a new one), and how much it got. */
export interface LeaseGrant {
  leaseId: string;
  takenNanos: number;
}

/**
 * Moves money from the balance to a lease, or moves nothing (null) when the balance is below
 * `minNanos`. Leaving three quarters of the balance behind keeps money within reach of other
 * processes and of holds that do not lease.
 */
export async function takeForLease(tx: Db, take: LeaseTake): Promise<LeaseGrant | null> {
  // Locks in the order used everywhere: the reservation, then the organization. Charges
  // written meanwhile only share the organization's row (their entries' foreign keys).
  if (take.openLeaseId !== null && tx.dialect === "postgres") {
    await tx.rows(sql`select 1 from reservations where id = ${take.openLeaseId} for update`);
  }
  const [row] = await tx.rows<{ balance_nanos: number }>(sql`
    select balance_nanos from organizations where id = ${take.organizationId}${organizationLock(tx)}`);
  if (!row || row.balance_nanos < take.minNanos) return null;
  const taken = Math.max(
    take.minNanos,
    Math.min(take.wantNanos, Math.floor(row.balance_nanos / 4)),
  );
  await tx.changes(sql`
    update organizations set balance_nanos = balance_nanos - ${taken}
    where id = ${take.organizationId}`);
  if (take.openLeaseId !== null) {
    const grown = await tx.changes(sql`
      update reservations set amount_nanos = amount_nanos + ${taken}
      where id = ${take.openLeaseId} and status = 'held'`);
    if (grown > 0) return { leaseId: take.openLeaseId, takenNanos: taken };
  }
  await tx.changes(sql`
    insert into reservations
      (id, organization_id, amount_nanos, status, charged_nanos, reference, created_at,
       finished_at, owner, api_key_id, kind)
    values (${take.leaseId}, ${take.organizationId}, ${taken}, 'held', 0, null, ${take.now},
      null, ${take.owner}, null, 'lease')`);
  return { leaseId: take.leaseId, takenNanos: taken };
}

/** Gives part of an open lease back to the balance; false when the lease is no longer open. */
export async function giveBackFromLease(
  tx: Db,
  leaseId: string,
  organizationId: string,
  nanos: number,
): Promise<boolean> {
  const shrunk = await tx.changes(sql`
    update reservations set amount_nanos = amount_nanos - ${nanos}
    where id = ${leaseId} and status = 'held'`);
  if (shrunk === 0) return false;
  await tx.changes(sql`
    update organizations set balance_nanos = balance_nanos + ${nanos}
    where id = ${organizationId}`);
  return true;
}

/** Closes an open lease and gives what its requests did not spend back to the balance. */
export async function closeLease(
  tx: Db,
  leaseId: string,
  organizationId: string,
  now: number,
): Promise<void> {
  const [closed] = await tx.rows<{ unspent: number }>(sql`
    update reservations set status = 'settled', finished_at = ${now}
    where id = ${leaseId} and status = 'held'
    returning amount_nanos - coalesce(charged_nanos, 0) as unspent`);
  if (!closed) return;
  await tx.changes(sql`
    update organizations set balance_nanos = balance_nanos + ${closed.unspent}
    where id = ${organizationId}`);
}

const CHARGE_LEASE = `
  update reservations set charged_nanos = coalesce(charged_nanos, 0) + ?
  where id = ? and status = 'held'`;

/** Counts charges against an open lease; false when the lease is no longer open. */
export async function chargeLease(tx: Statements, leaseId: string, nanos: number) {
  const charged = await tx.changes({ sql: CHARGE_LEASE, parameters: [nanos, leaseId] });
  return charged > 0;
}

/**
 * Charges the balance directly, as far as it reaches: for charges whose lease was closed under
 * them (its money already went back to the balance). Returns what was taken.
 */
export async function chargeBalance(
  tx: Db,
  organizationId: string,
  nanos: number,
): Promise<number> {
  const [row] = await tx.rows<{ balance_nanos: number }>(sql`
    select balance_nanos from organizations where id = ${organizationId}${organizationLock(tx)}`);
  const taken = Math.min(nanos, Math.max(0, row?.balance_nanos ?? 0));
  if (taken > 0) {
    await tx.changes(sql`
      update organizations set balance_nanos = balance_nanos - ${taken}
      where id = ${organizationId}`);
  }
  return taken;
}

const SPENDABLE = `
  select o.balance_nanos + coalesce((
    select sum(r.amount_nanos - coalesce(r.charged_nanos, 0)) from reservations r
    where r.organization_id = o.id and r.kind = 'lease' and r.status = 'held'
  ), 0) as spendable
  from organizations o where o.id = ?`;

/** What the organization may spend now: its balance plus what its open leases have not spent. */
export async function spendableNanos(
  db: Statements,
  organizationId: string,
): Promise<number | null> {
  const [row] = await db.rows<{ spendable: number }>(spendableStatement(organizationId));
  return row ? Number(row.spendable) : null;
}

/** The statement `spendableNanos` runs: one per group of charges. */
export function spendableStatement(organizationId: string): PlainStatement {
  return { sql: SPENDABLE, parameters: [organizationId] };
}

/**
 * The lock a balance is read under before it changes: PostgreSQL's `for no key update` (what the
 * update itself takes), which lets other transactions insert rows referring to the organization
 * meanwhile. SQLite's write lock already serialises writers.
 */
function organizationLock(tx: Db) {
  return tx.dialect === "postgres" ? sql` for no key update` : sql``;
}

export interface LeaseCharges {
  organizationId: string;
  leaseId: string;
  /** What the charges took from the lease, together. */
  coveredNanos: number;
  /** In order; balances after each relative to the balance after the last. */
  entries: ChargeEntry[];
  usages: UsageRow[];
  now: number;
}

const CHARGE_LEASE_AT_ONCE = `
  with charged as (
    update reservations set charged_nanos = coalesce(charged_nanos, 0) + ?
    where id = ? and status = 'held'
    returning organization_id
  ), spendable as (
    select o.balance_nanos - ? + coalesce((
      select sum(r.amount_nanos - coalesce(r.charged_nanos, 0)) from reservations r
      where r.organization_id = o.id and r.kind = 'lease' and r.status = 'held'
    ), 0) as after
    from organizations o where o.id in (select organization_id from charged)
  ), entry as (
    insert into ledger_entries
      (organization_id, kind, amount_nanos, balance_after_nanos, reference, memo, created_at)
    select ?, 'charge', -e.amount, spendable.after + e.later, e.reference, e.memo, ?
    from spendable cross join unnest(?::bigint[], ?::bigint[], ?::text[], ?::text[])
      with ordinality as e(amount, later, reference, memo, position)
    order by e.position
  ), usage as (
    insert into usage_records
      (organization_id, api_key_id, model, input_tokens, output_tokens, cost_nanos, created_at)
    select ?, u.key_id, u.model, u.input_tokens, u.output_tokens, u.cost, ?
    from spendable cross join unnest(?::text[], ?::text[], ?::bigint[], ?::bigint[], ?::bigint[])
      as u(key_id, model, input_tokens, output_tokens, cost)
  )
  select after from spendable`;

/**
 * PostgreSQL: counts charges against an open lease and writes their entries and usage records
 * in one statement, one round trip, and returns the organization's spendable balance after
 * them; null (nothing written) when the lease is no longer open. The statement's subqueries see
 * the lease before its own update, hence the covered amount taken off.
 */
export async function chargeLeaseAtOnce(db: Statements, charges: LeaseCharges) {
  const { organizationId, entries, usages, coveredNanos, now } = charges;
  const [row] = await db.rows<{ after: number }>({
    sql: CHARGE_LEASE_AT_ONCE,
    parameters: [
      coveredNanos,
      charges.leaseId,
      coveredNanos,
      organizationId,
      now,
      entries.map((entry) => entry.amountNanos),
      entries.map((entry) => entry.balanceAfterNanos),
      entries.map((entry) => entry.reference),
      entries.map((entry) => entry.memo),
      organizationId,
      now,
      usages.map((row) => row.usage.apiKeyId),
      usages.map((row) => row.usage.model),
      usages.map((row) => row.usage.inputTokens),
      usages.map((row) => row.usage.outputTokens),
      usages.map((row) => row.costNanos),
    ],
  });
  return row ? Number(row.after) : null;
}
