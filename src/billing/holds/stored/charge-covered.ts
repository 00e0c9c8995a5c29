import { type RawBuilder, sql } from "kysely";
import type { Db } from "../../../db/database.js";
import { appendCharges, laterSum } from "../../ledger-entries.js";
import type { ChargeItem, Settlement } from "../../ledger-types.js";
import { insertUsageRecord, type UsageDetails } from "../../usage-records.js";
import { finishHold } from "./finish-hold.js";

/*
 * Settling a stored hold in the usual case: claim it, and when the hold plus the balance cover
 * the cost, charge it and write its entries and usage record. One statement on PostgreSQL, whose
 * data-modifying WITH clauses SQLite lacks; there the same steps one by one.
 */

export interface SettleValues {
  reservationId: string;
  organizationId: string;
  holdNanos: number;
  actualNanos: number;
  reference: string | null;
  /** One charge entry each (those that cost something), in order. */
  items: ChargeItem[];
  now: number;
  /** Recorded with a covered charge (of `actualNanos`); an uncovered one records its own. */
  usage: UsageDetails | null;
}

interface ClaimOutcome {
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
function claimAndChargeOnPostgres(settle: SettleValues): RawBuilder<ClaimOutcome> {
  const refund = settle.holdNanos - settle.actualNanos;
  const amounts = settle.items.map((item) => item.amountNanos);
  const laters = settle.items.map((_, index) => laterSum(settle.items, index));
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

/**
 * Claims the hold (which takes the write lock on SQLite, the row lock on PostgreSQL) and, when
 * the hold plus whatever else is spendable covers the cost, charges it: "not claimed" when the
 * hold was no longer open, "not covered" when the caller's transaction must charge what remains.
 */
export async function claimAndChargeCovered(
  tx: Db,
  settle: SettleValues,
): Promise<Settlement | "not claimed" | "not covered"> {
  if (tx.dialect === "postgres") {
    const [outcome] = await tx.rows(claimAndChargeOnPostgres(settle));
    if (!outcome?.claimed) return "not claimed";
    if (outcome.balance_nanos === null) return "not covered";
    return { chargedNanos: settle.actualNanos, balanceNanos: outcome.balance_nanos };
  }
  return claimAndChargeStepByStep(tx, settle);
}

async function claimAndChargeStepByStep(
  tx: Db,
  settle: SettleValues,
): Promise<Settlement | "not claimed" | "not covered"> {
  const { organizationId, actualNanos, now } = settle;
  if (!(await finishHold(tx, settle.reservationId, "settled", now, actualNanos))) {
    return "not claimed";
  }
  const [covered] = await tx.rows<{ balance_nanos: number }>(sql`
    update organizations set balance_nanos = balance_nanos + ${settle.holdNanos - actualNanos}
    where id = ${organizationId} and balance_nanos >= ${actualNanos - settle.holdNanos}
    returning balance_nanos`);
  if (!covered) return "not covered";
  const balanceNanos = covered.balance_nanos;
  await appendCharges(tx, organizationId, balanceNanos, settle.reference, settle.items, now);
  if (settle.usage) {
    await tx.changes(insertUsageRecord(organizationId, settle.usage, actualNanos, now));
  }
  return { chargedNanos: actualNanos, balanceNanos };
}
