import { notFound } from "../errors.js";
import { isWellFormedId } from "../util/ids.js";
import type { Db } from "./database.js";

/** The tables listed a page at a time in `seq` order, and the name of what each row holds. */
const LISTED = { files: "file", batches: "batch" } as const;

/**
 * Where a page starts: the `seq` of the object the `after` cursor names, within the caller's
 * organization; undefined without a cursor. An id that names nothing there is a 404 on `after`.
 */
export async function cursorSeq(
  db: Db,
  table: keyof typeof LISTED,
  organizationId: string,
  after: string | undefined,
): Promise<number | undefined> {
  if (!after) return undefined;
  const row = isWellFormedId(after)
    ? await db.query
        .selectFrom(table)
        .select("seq")
        .where("id", "=", after)
        .where("organization_id", "=", organizationId)
        .executeTakeFirst()
    : undefined;
  if (!row) throw notFound(LISTED[table], after, "after");
  return row.seq;
}

/** OpenAI's list object, its first and last ids the cursors of neighbouring pages. */
export function listPage<T extends { id: string }>(data: T[], hasMore: boolean) {
  return {
    object: "list" as const,
    data,
    first_id: data[0]?.id ?? null,
    last_id: data.at(-1)?.id ?? null,
    has_more: hasMore,
  };
}
