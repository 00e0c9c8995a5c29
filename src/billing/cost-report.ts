import { sql } from "kysely";
import type { Db } from "../db/database.js";
import { invalidRequest } from "../errors.js";
import {
  type DayBucket,
  type DayRange,
  dayBuckets,
  dayPage,
  SECONDS_PER_DAY,
} from "./day-pages.js";

export type CostGroup = "line_item" | "model" | "api_key_id";

export interface CostQuery extends DayRange {
  groupBy: readonly CostGroup[];
}

export interface CostTotal {
  /** Set when grouped by line item: the charge's ledger memo (a model, `research:<source>`). */
  line_item: string | null;
  /** Set when grouped by model. */
  model: string | null;
  /** Set when grouped by key; null within such a group for work no key made (older batches). */
  api_key_id: string | null;
  cost_nanos: number;
}

export interface CostPage {
  days: DayBucket<CostTotal>[];
  nextPage: number | null;
}

type CostRow = CostTotal & { day: number };

/** A literal, not a parameter: PostgreSQL matches the grouped expression by its text. */
const DAY = sql<number>`created_at / ${sql.lit(SECONDS_PER_DAY)}`;

/**
 * What the organization was charged per UTC day. Line items are the ledger's charge entries
 * (one per model call and per research source); models and keys come from the usage records
 * written with the same charges, which carry no line items, so the two cannot be combined.
 */
export class CostReports {
  constructor(private readonly db: Db) {}

  async costs(organizationId: string, query: CostQuery): Promise<CostPage> {
    const byLineItem = query.groupBy.includes("line_item");
    if (byLineItem && query.groupBy.length > 1) {
      throw invalidRequest(
        "group_by line_item cannot be combined with model or api_key_id: line items are the ledger's charges, which are not recorded per model and key.",
        "unsupported_group_by",
        "group_by",
      );
    }
    const page = dayPage(query);
    if (page.days === 0) return { days: [], nextPage: page.nextPage };
    const rows = byLineItem
      ? await this.byLineItem(organizationId, page.from, page.to)
      : await this.fromUsage(organizationId, query.groupBy, page.from, page.to);
    const sorted = rows
      // Object.assign, not a spread: see prepareCompletion (completions/plan.ts).
      .map((row) =>
        Object.assign({}, row, { day: Number(row.day), cost_nanos: Number(row.cost_nanos) }),
      )
      .sort(costliestFirst);
    return { days: dayBuckets(page, sorted), nextPage: page.nextPage };
  }

  private byLineItem(organizationId: string, from: number, to: number): Promise<CostRow[]> {
    return this.db.rows<CostRow>(sql`
      select ${DAY} as day, memo as line_item, null as model, null as api_key_id,
        -sum(amount_nanos) as cost_nanos
      from ledger_entries
      where organization_id = ${organizationId} and kind = 'charge'
        and created_at >= ${from} and created_at < ${to}
      group by ${DAY}, memo`);
  }

  private fromUsage(
    organizationId: string,
    groupBy: readonly CostGroup[],
    from: number,
    to: number,
  ): Promise<CostRow[]> {
    const byModel = groupBy.includes("model");
    const byKey = groupBy.includes("api_key_id");
    // PostgreSQL refuses a constant in GROUP BY: only the grouped columns are listed there.
    const groups = [DAY, ...(byModel ? [sql`model`] : []), ...(byKey ? [sql`api_key_id`] : [])];
    return this.db.rows<CostRow>(sql`
      select ${DAY} as day, null as line_item, ${byModel ? sql`model` : sql`null`} as model,
        ${byKey ? sql`api_key_id` : sql`null`} as api_key_id, sum(cost_nanos) as cost_nanos
      from usage_records
      where organization_id = ${organizationId}
        and created_at >= ${from} and created_at < ${to}
      group by ${sql.join(groups)}`);
  }
}

function costliestFirst(a: CostRow, b: CostRow): number {
  return (
    a.day - b.day ||
    b.cost_nanos - a.cost_nanos ||
    (a.line_item ?? "").localeCompare(b.line_item ?? "") ||
    (a.model ?? "").localeCompare(b.model ?? "") ||
    (a.api_key_id ?? "").localeCompare(b.api_key_id ?? "")
  );
}
