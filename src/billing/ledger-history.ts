import type { Db } from "../db/database.js";
import type { LedgerKind } from "../db/schema.js";
import { notFound } from "../errors.js";

export interface LedgerEntryRecord {
  id: number;
  kind: LedgerKind;
  amount_nanos: number;
  balance_after_nanos: number;
  reference: string | null;
  memo: string | null;
  created_at: number;
}

export interface LedgerPageQuery {
  /** The public id of the last entry of the previous page. */
  after?: string | undefined;
  limit: number;
  kind?: LedgerKind | undefined;
}

export interface LedgerPage {
  entries: LedgerEntryRecord[];
  hasMore: boolean;
}

/** An organization's ledger entries (credits, charges, top-ups, refunds), newest first. */
export class LedgerHistory {
  constructor(private readonly db: Db) {}

  /** One page; `after` must name one of the organization's entries, else not found. */
  async page(organizationId: string, query: LedgerPageQuery): Promise<LedgerPage> {
    const after = query.after === undefined ? undefined : entryNumber(query.after);
    if (after === null || (after !== undefined && !(await this.owns(organizationId, after)))) {
      throw notFound("ledger entry", query.after ?? "", "after");
    }
    const rows = await this.db.query
      .selectFrom("ledger_entries")
      .select([
        "id",
        "kind",
        "amount_nanos",
        "balance_after_nanos",
        "reference",
        "memo",
        "created_at",
      ])
      .where("organization_id", "=", organizationId)
      .$if(after !== undefined, (select) => select.where("id", "<", after ?? 0))
      .$if(query.kind !== undefined, (select) => select.where("kind", "=", query.kind ?? "charge"))
      .orderBy("id", "desc")
      .limit(query.limit + 1)
      .execute();
    return { entries: rows.slice(0, query.limit), hasMore: rows.length > query.limit };
  }

  private async owns(organizationId: string, id: number): Promise<boolean> {
    const row = await this.db.query
      .selectFrom("ledger_entries")
      .select("id")
      .where("organization_id", "=", organizationId)
      .where("id", "=", id)
      .executeTakeFirst();
    return row !== undefined;
  }
}

const ENTRY_PREFIX = "le_";

/** Entry ids on the wire: `le_` and the entry's number. */
export function publicEntryId(id: number): string {
  return `${ENTRY_PREFIX}${id}`;
}

/** The entry number of a public id; null for text that names no entry. */
export function entryNumber(publicId: string): number | null {
  const match = /^le_([1-9][0-9]{0,15})$/.exec(publicId);
  if (!match) return null;
  const id = Number(match[1]);
  return Number.isSafeInteger(id) ? id : null;
}
