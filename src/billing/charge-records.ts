import { sql } from "kysely";
import type { Statements } from "../db/database.js";
import type { UsageDetails } from "./usage-records.js";

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

/** Rows per statement: well under SQLite's limit of bound parameters. */
const ROWS_PER_STATEMENT = 400;

/** Appends charge entries in order, many to a statement. */
export async function insertChargeEntries(
  tx: Statements,
  entries: readonly ChargeEntry[],
  now: number,
): Promise<void> {
  for (const rows of slices(entries)) {
    const values = rows.map(
      (entry) =>
        sql`(${entry.organizationId}, 'charge', ${-entry.amountNanos}, ${entry.balanceAfterNanos},
          ${entry.reference}, ${entry.memo}, ${now})`,
    );
    await tx.changes(sql`
      insert into ledger_entries
        (organization_id, kind, amount_nanos, balance_after_nanos, reference, memo, created_at)
      values ${sql.join(values)}`);
  }
}

/** Writes usage records, many to a statement. */
export async function insertUsageRows(
  tx: Statements,
  records: readonly UsageRow[],
  now: number,
): Promise<void> {
  for (const rows of slices(records)) {
    const values = rows.map(
      ({ organizationId, usage, costNanos }) =>
        sql`(${organizationId}, ${usage.apiKeyId}, ${usage.model}, ${usage.inputTokens},
          ${usage.outputTokens}, ${costNanos}, ${now})`,
    );
    await tx.changes(sql`
      insert into usage_records
        (organization_id, api_key_id, model, input_tokens, output_tokens, cost_nanos, created_at)
      values ${sql.join(values)}`);
  }
}

function* slices<T>(rows: readonly T[]): Generator<readonly T[]> {
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
    yield rows.slice(start, start + ROWS_PER_STATEMENT);
  }
}
