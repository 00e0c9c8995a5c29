import { type RawBuilder, sql } from "kysely";
import { relaxedCommit } from "../db/postgres-database.js";
import type { UsageDetails } from "./usage-records.js";

/*
 * The two movements every completion makes, each as one statement on PostgreSQL, whose
 * data-modifying WITH clauses SQLite lacks. There a round trip costs far more than the work
 * (0.3 ms here), and the step-by-step forms took four and five of them.
 */

export interface HoldValues {
  reservationId: string;
  organizationId: string;
  maxNanos: number;
  reference: string | null;
  owner: string;
  now: number;
  /** The key whose spend limit carries the hold, or null. */
  apiKeyId: string | null;
}

/**
 * Takes the hold from the balance and records it, or changes nothing (0 rows) when short. With
 * `relaxed` (a statement run on its own) the commit does not wait for the disk: a crash can lose
 * the hold, but only whole (balance and reservation together) and with every later write that
 * relied on it, so the money it held is never lost nor spent twice.
 */
export function holdWithReservation(hold: HoldValues, relaxed = false): RawBuilder<unknown> {
  const relax = relaxed ? sql` and ${relaxedCommit} is not null` : sql``;
  return sql`
    with held as (
      update organizations set balance_nanos = balance_nanos - ${hold.maxNanos}
      where id = ${hold.organizationId} and balance_nanos >= ${hold.maxNanos}${relax}
      returning id
    )
    insert into reservations
      (id, organization_id, amount_nanos, status, charged_nanos, reference, created_at,
       finished_at, owner, api_key_id)
    select ${hold.reservationId}, held.id, ${hold.maxNanos}, 'held', null, ${hold.reference},
      ${hold.now}, null, ${hold.owner}, ${hold.apiKeyId}
    from held`;
}

export interface SettleValues {
  reservationId: string;
  organizationId: string;
  holdNanos: number;
  actualNanos: number;
  reference: string | null;
  /** One charge entry each (those that cost something), in order. */
  items: { amountNanos: number; memo: string | null; laterNanos: number }[];
  now: number;
  /** Recorded with a covered charge (of `actualNanos`); an uncovered one records its own. */
  usage: UsageDetails | null;
}

export interface ClaimOutcome {
  /** 0 when the reservation was no longer held (settled or released before). */
  claimed: number;
  /** The balance after a charge the hold covered; null when it did not (or nothing claimed). */
  balance_nanos: number | null;
}

/**
 * Claims the reservation and, when the hold plus the balance cover the cost, charges it and
 * writes its ledger entries and usage record. Claiming comes first and everything else reads its
 * result, so a concurrent second settlement waits on the reservation's row lock and then changes
 * nothing. Run inside a transaction, where an uncovered cost is charged by the statements that
 * follow, unless the cost is within the hold: then it is always covered.
 */
export function claimAndChargeCovered(settle: SettleValues): RawBuilder<ClaimOutcome> {
  const refund = settle.holdNanos - settle.actualNanos;
  const amounts = settle.items.map((item) => item.amountNanos);
  const laters = settle.items.map((item) => item.laterNanos);
  const memos = settle.items.map((item) => item.memo);
  const usage = settle.usage;
  const recordUsage = usage
    ? sql`, usage as (
      insert into usage_records
        (organization_id, api_key_id, model, input_tokens, output_tokens, cost_nanos, created_at)
      select ${settle.organizationId}, ${usage.apiKeyId}, ${usage.model}, ${usage.inputTokens},
        ${usage.outputTokens}, ${settle.actualNanos}, ${settle.now}
      from covered
    )`
    : sql``;
  return sql<ClaimOutcome>`
    with claimed as (
      update reservations
      set status = 'settled', finished_at = ${settle.now}, charged_nanos = ${settle.actualNanos}
      where id = ${settle.reservationId} and status = 'held'
      returning organization_id
    ), covered as (
      update organizations set balance_nanos = balance_nanos + ${refund}
      where id in (select organization_id from claimed) and balance_nanos >= ${-refund}
      returning balance_nanos
    ), entry as (
      insert into ledger_entries
        (organization_id, kind, amount_nanos, balance_after_nanos, reference, memo, created_at)
      select ${settle.organizationId}, 'charge', -item.amount, covered.balance_nanos + item.later,
        ${settle.reference}, item.memo, ${settle.now}
      from covered cross join unnest(${amounts}::bigint[], ${laters}::bigint[], ${memos}::text[])
        with ordinality as item(amount, later, memo, position)
      where item.amount > 0
      order by item.position
    )${recordUsage}
    select (select count(*) from claimed) as claimed,
      (select balance_nanos from covered) as balance_nanos`;
}
