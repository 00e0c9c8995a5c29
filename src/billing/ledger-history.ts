import type { Db } from "../db/database.js";
import type { LedgerKind } from "../db/schema.js";
import { invalidRequest, notFound } from "../errors.js";
import { LedgerEntryIds } from "./ledger-entry-ids.js";

export interface LedgerEntryRecord {
  /** The public id: `le_` and the encrypted entry number (ledger-entry-ids.ts). */
  id: string;
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
  private readonly ids: LedgerEntryIds;

  constructor(private readonly db: Db) {
    this.ids = new LedgerEntryIds(db);
  }

  /** One page; `after` must name one of the organization's entries, else not found. */
  async page(organizationId: string, query: LedgerPageQuery): Promise<LedgerPage> {
    const after =
      query.after === undefined ? undefined : await this.afterNumber(organizationId, query.after);
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
    const shown = rows.slice(0, query.limit);
    const publicIds = await this.ids.publicIds(shown.map((row) => row.id));
    return {
      entries: shown.map((row, index) => ({ ...row, id: publicIds[index] as string })),
      hasMore: rows.length > query.limit,
    };
  }

  /** The entry number an `after` cursor names, if the entry is the organization's own. */
  private async afterNumber(organizationId: string, after: string): Promise<number> {
    const parsed = await this.ids.parse(after);
    if (parsed.kind === "numbered") {
      throw invalidRequest(
        `'${after}' is a ledger entry id of a retired form: entries now have other ids. ` +
          "Page from the start of /v1/organization/ledger and pass the last_id it returns.",
        "ledger_cursor_retired",
        "after",
      );
    }
    if (parsed.kind === "entry" && (await this.owns(organizationId, parsed.number))) {
      return parsed.number;
    }
    throw notFound("ledger entry", after, "after");
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
