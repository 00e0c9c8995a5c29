import { sql } from "kysely";
import type { Db } from "../db/database.js";
import { notFound } from "../errors.js";
import { isWellFormedId } from "../util/ids.js";
import {
  type DayBucket,
  type DayRange,
  dayBuckets,
  dayPage,
  SECONDS_PER_DAY,
} from "./day-pages.js";

export type UsageGroup = "model" | "api_key_id";

export interface UsageQuery extends DayRange {
  groupBy: readonly UsageGroup[];
  models?: readonly string[] | undefined;
  apiKeyIds?: readonly string[] | undefined;
}

export interface UsageTotals {
  /** Set when grouped by model. */
  model: string | null;
  /** Set when grouped by key; null within such a group for work no key made (batch lines). */
  api_key_id: string | null;
  requests: number;
  input_tokens: number;
  output_tokens: number;
  cost_nanos: number;
}

export interface UsagePage {
  days: DayBucket<UsageTotals>[];
  /** The start of the next page's first day; null on the last page. */
  nextPage: number | null;
}

interface UsageRow extends UsageTotals {
  day: number;
}

/**
 * The organization's settled requests added up by UTC day, and by model and key when asked.
 * Every day of the range is listed, empty ones too, `limit` days per page.
 */
export class UsageReports {
  constructor(private readonly db: Db) {}

  /** Keys named in `apiKeyIds` must be the organization's: any other is not found. */
  async completions(organizationId: string, query: UsageQuery): Promise<UsagePage> {
    if (query.apiKeyIds?.length) await this.expectOwnKeys(organizationId, query.apiKeyIds);
    const page = dayPage(query);
    const rows = page.days > 0 ? await this.totals(organizationId, query, page.from, page.to) : [];
    return { days: dayBuckets(page, rows), nextPage: page.nextPage };
  }

  private async expectOwnKeys(organizationId: string, keyIds: readonly string[]): Promise<void> {
    const malformed = keyIds.find((id) => !isWellFormedId(id));
    if (malformed !== undefined) throw notFound("api key", malformed, "api_key_ids");
    const own = await this.db.query
      .selectFrom("api_keys")
      .select("id")
      .where("organization_id", "=", organizationId)
      .where("id", "in", keyIds)
      .execute();
    const known = new Set(own.map((row) => row.id));
    const missing = keyIds.find((id) => !known.has(id));
    if (missing !== undefined) throw notFound("api key", missing, "api_key_ids");
  }

  private async totals(
    organizationId: string,
    query: UsageQuery,
    from: number,
    to: number,
  ): Promise<UsageRow[]> {
    const byModel = query.groupBy.includes("model");
    const byKey = query.groupBy.includes("api_key_id");
    // A literal, not a parameter: PostgreSQL matches the grouped expression by its text.
    const day = sql<number>`created_at / ${sql.lit(SECONDS_PER_DAY)}`;
    const rows = await this.db.query
      .selectFrom("usage_records")
      .select((eb) => [
        day.as("day"),
        groupColumn("model", byModel).as("model"),
        groupColumn("api_key_id", byKey).as("api_key_id"),
        eb.fn.countAll<number>().as("requests"),
        eb.fn.sum<number>("input_tokens").as("input_tokens"),
        eb.fn.sum<number>("output_tokens").as("output_tokens"),
        eb.fn.sum<number>("cost_nanos").as("cost_nanos"),
      ])
      .where("organization_id", "=", organizationId)
      .where("created_at", ">=", from)
      .where("created_at", "<", to)
      .$if(query.models !== undefined, (select) => select.where("model", "in", query.models ?? []))
      .$if(query.apiKeyIds !== undefined, (select) =>
        select.where("api_key_id", "in", query.apiKeyIds ?? []),
      )
      .groupBy(day)
      .$if(byModel, (select) => select.groupBy("model"))
      .$if(byKey, (select) => select.groupBy("api_key_id"))
      .execute();
    return rows.sort(costliestFirst);
  }
}

/** The column when results are grouped by it, else null for every result. */
function groupColumn(column: UsageGroup, grouped: boolean) {
  return grouped ? sql<string | null>`${sql.ref(column)}` : sql<string | null>`null`;
}

function costliestFirst(a: UsageRow, b: UsageRow): number {
  return (
    a.day - b.day ||
    b.cost_nanos - a.cost_nanos ||
    (a.model ?? "").localeCompare(b.model ?? "") ||
    (a.api_key_id ?? "").localeCompare(b.api_key_id ?? "")
  );
}
