import { sql } from "kysely";
import type { Db } from "../db/database.js";
import type { BatchRow } from "./batch-object.js";
import { isTerminal } from "./batch-object.js";

/** Finished batches whose cost is remembered: enough for every page a dashboard shows. */
const REMEMBERED = 10_000;

/**
 * What each batch's lines have been charged so far, in nano-dollars. A line is charged under the
 * reference `<batch id>:<custom_id>` (lineBillingReference), once at most; its charge entries
 * (the model call, each research source) are found through the reference index, one line at a
 * time, which stays exact whatever the database's text collation (a prefix range would not).
 * That reads every line (about 35 ms for 50,000 on SQLite), so the cost of a finished batch,
 * which no longer changes, is read once per process.
 */
export class BatchCosts {
  private readonly finished = new Map<string, number>();

  constructor(private readonly db: Db) {}

  async of(
    organizationId: string,
    rows: readonly Pick<BatchRow, "id" | "status">[],
  ): Promise<Map<string, number>> {
    const costs = new Map<string, number>();
    for (const row of rows) {
      const known = this.finished.get(row.id);
      if (known !== undefined) {
        costs.set(row.id, known);
        continue;
      }
      const cost = await this.read(organizationId, row.id);
      costs.set(row.id, cost);
      if (isTerminal(row.status)) this.remember(row.id, cost);
    }
    return costs;
  }

  private async read(organizationId: string, batchId: string): Promise<number> {
    // CROSS JOIN keeps SQLite's planner on the reference index (line by line) rather than
    // scanning the organization's whole ledger; PostgreSQL plans it as a plain join.
    const [row] = await this.db.rows<{ cost: number | string | null }>(sql`
      select -sum(e.amount_nanos) as cost
      from batch_lines l cross join ledger_entries e
      where l.batch_id = ${batchId} and e.reference = l.batch_id || ':' || l.custom_id
        and e.organization_id = ${organizationId} and e.kind = 'charge'`);
    return Number(row?.cost ?? 0);
  }

  private remember(batchId: string, cost: number): void {
    if (this.finished.size >= REMEMBERED) {
      const oldest = this.finished.keys().next().value;
      if (oldest !== undefined) this.finished.delete(oldest);
    }
    this.finished.set(batchId, cost);
  }
}
