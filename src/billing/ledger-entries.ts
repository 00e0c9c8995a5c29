import { sql } from "kysely";
import type { Statements } from "../db/database.js";
import type { LedgerKind } from "../db/schema.js";
import type { ChargeItem, EntryDetails } from "./ledger-types.js";

/** Appends one entry of the append-only ledger, stating the balance after it. */
export async function appendEntry(
  tx: Statements,
  organizationId: string,
  kind: LedgerKind,
  amountNanos: number,
  balanceAfterNanos: number,
  details: EntryDetails,
  now: number,
): Promise<void> {
  const { reference = null, memo = null } = details;
  await tx.changes(sql`
    insert into ledger_entries
      (organization_id, kind, amount_nanos, balance_after_nanos, reference, memo, created_at)
    values (${organizationId}, ${kind}, ${amountNanos}, ${balanceAfterNanos}, ${reference},
      ${memo}, ${now})`);
}

/**
 * One charge entry per part that cost something, in order; each states the balance as it
 * stood after it, so the last one states `balanceAfterNanos`.
 */
export async function appendCharges(
  tx: Statements,
  organizationId: string,
  balanceAfterNanos: number,
  reference: string | null,
  items: ChargeItem[],
  now: number,
): Promise<void> {
  for (const [index, item] of items.entries()) {
    if (item.amountNanos === 0) continue;
    await appendEntry(
      tx,
      organizationId,
      "charge",
      -item.amountNanos,
      balanceAfterNanos + laterSum(items, index),
      { reference, memo: item.memo },
      now,
    );
  }
}

/** What the parts after `index` add up to. */
export function laterSum(items: readonly ChargeItem[], index: number): number {
  let sum = 0;
  for (let later = index + 1; later < items.length; later++) {
    sum += (items[later] as ChargeItem).amountNanos;
  }
  return sum;
}
