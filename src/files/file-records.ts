import type { Db } from "../db/database.js";
import type { FilePurpose } from "../db/schema.js";
import { isWellFormedId } from "../util/ids.js";
import type { FileRow } from "./file-object.js";

const COLUMNS = [
  "id",
  "organization_id",
  "purpose",
  "filename",
  "bytes",
  "status",
  "status_details",
  "created_at",
  "expires_at",
] as const;

export async function insertFile(db: Db, row: FileRow): Promise<void> {
  await db.query.insertInto("files").values(row).execute();
}

/** A live (unexpired) file of the organization, or undefined. */
export async function findFile(
  db: Db,
  organizationId: string,
  id: string,
  now: number,
): Promise<FileRow | undefined> {
  if (!isWellFormedId(id)) return undefined;
  return db.query
    .selectFrom("files")
    .select(COLUMNS)
    .where("id", "=", id)
    .where("organization_id", "=", organizationId)
    .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", now)]))
    .executeTakeFirst();
}

export interface FilePageQuery {
  organizationId: string;
  now: number;
  purpose: FilePurpose | undefined;
  /** `seq` of the cursor file; the page starts after it. */
  afterSeq: number | undefined;
  limit: number;
  order: "asc" | "desc";
}

/** One page in creation order, `limit + 1` rows so the caller can tell whether more follow. */
export async function listFiles(db: Db, query: FilePageQuery): Promise<FileRow[]> {
  const { afterSeq } = query;
  return db.query
    .selectFrom("files")
    .select(COLUMNS)
    .where("organization_id", "=", query.organizationId)
    .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", query.now)]))
    .$if(query.purpose !== undefined, (q) => q.where("purpose", "=", query.purpose as FilePurpose))
    .$if(afterSeq !== undefined, (q) =>
      q.where("seq", query.order === "asc" ? ">" : "<", afterSeq ?? 0),
    )
    .orderBy("seq", query.order)
    .limit(query.limit + 1)
    .execute();
}

/** Removes the row; true when this call removed it. */
export async function deleteFileRow(db: Db, organizationId: string, id: string): Promise<boolean> {
  if (!isWellFormedId(id)) return false;
  const result = await db.query
    .deleteFrom("files")
    .where("id", "=", id)
    .where("organization_id", "=", organizationId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function expiredFileIds(db: Db, now: number, limit: number): Promise<string[]> {
  const rows = await db.query
    .selectFrom("files")
    .select("id")
    .where("expires_at", "<=", now)
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}

export async function deleteExpiredFileRow(db: Db, id: string, now: number): Promise<boolean> {
  const result = await db.query
    .deleteFrom("files")
    .where("id", "=", id)
    .where("expires_at", "<=", now)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Which of `ids` have a file row, expired or not. */
export async function existingFileIds(db: Db, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.query.selectFrom("files").select("id").where("id", "in", ids).execute();
  return new Set(rows.map((row) => row.id));
}
