import type { Db } from "../../../db/database.js";
import type { UsageDetails } from "../../usage-records.js";

/** One charge entry of the ledger, as written. */
export interface ChargeEntry {
  organizationId: string;
  amountNanos: number;
  balanceAfterNanos: number;
  reference: string | null;
  memo: string | null;
}

/** One usage record, as written. */
export interface UsageRow {
  organizationId: string;
  usage: UsageDetails;
  costNanos: number;
}

/** Rows per statement on PostgreSQL, where each statement is a round trip. */
const ROWS_PER_STATEMENT = 400;

const entriesText = multiRowInsert(
  "insert into ledger_entries (organization_id, kind, amount_nanos, balance_after_nanos, " +
    "reference, memo, created_at) values ",
  "(?, 'charge', ?, ?, ?, ?, ?)",
);
const usageText = multiRowInsert(
  "insert into usage_records (organization_id, api_key_id, model, input_tokens, output_tokens, " +
    "cost_nanos, created_at) values ",
  "(?, ?, ?, ?, ?, ?, ?)",
);

/**
 * Appends charge entries in order: many to a statement on PostgreSQL, one to a statement on
 * SQLite, where a statement costs no round trip and one SQL text is prepared once.
 */
export async function insertChargeEntries(
  tx: Db,
  entries: readonly ChargeEntry[],
  now: number,
): Promise<void> {
  for (const rows of slices(tx, entries)) {
    const parameters = [];
    for (const entry of rows) {
      parameters.push(
        entry.organizationId,
        -entry.amountNanos,
        entry.balanceAfterNanos,
        entry.reference,
        entry.memo,
        now,
      );
    }
    await tx.changes({ sql: entriesText(rows.length), parameters });
  }
}

/** Writes usage records, as charge entries are written. */
export async function insertUsageRows(
  tx: Db,
  records: readonly UsageRow[],
  now: number,
): Promise<void> {
  for (const rows of slices(tx, records)) {
    const parameters = [];
    for (const { organizationId, usage, costNanos } of rows) {
      parameters.push(
        organizationId,
        usage.apiKeyId,
        usage.model,
        usage.inputTokens,
        usage.outputTokens,
        costNanos,
        now,
      );
    }
    await tx.changes({ sql: usageText(rows.length), parameters });
  }
}

/** The text of an insert of some rows; the one-row text, SQLite's every time, is made once. */
function multiRowInsert(head: string, row: string): (rows: number) => string {
  const single = head + row;
  return (rows) => (rows === 1 ? single : head + new Array(rows).fill(row).join(", "));
}

function* slices<T>(tx: Db, rows: readonly T[]): Generator<readonly T[]> {
  const size = tx.dialect === "postgres" ? ROWS_PER_STATEMENT : 1;
  for (let start = 0; start < rows.length; start += size) yield rows.slice(start, start + size);
}
