import type { Statements } from "../../../db/database.js";
import type { ChargeEntry, UsageRow } from "./charge-records.js";

/*
 * Counting charges against a lease: the statement both databases run, and PostgreSQL's form that
 * also writes the charges' entries and usage records in the same round trip.
 */

const CHARGE_LEASE = `
  update reservations set charged_nanos = coalesce(charged_nanos, 0) + ?
  where id = ? and status = 'held'`;

/** Counts charges against an open lease; false when the lease is no longer open. */
export async function chargeLease(tx: Statements, leaseId: string, nanos: number) {
  const charged = await tx.changes({ sql: CHARGE_LEASE, parameters: [nanos, leaseId] });
  return charged > 0;
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
