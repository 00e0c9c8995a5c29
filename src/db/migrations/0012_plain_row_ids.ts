import { type Kysely, type Migration, sql } from "kysely";
import type { DialectName } from "../connect.js";

/** The tables every settlement appends to. */
const APPENDED_TABLES = ["ledger_entries", "usage_records"] as const;

/**
 * Ledger entries and usage records number their rows without AUTOINCREMENT on SQLite. With it,
 * every insert also rewrote the `sqlite_sequence` row of its table: one more page in the
 * write-ahead log for each settlement's commit, which is seven pages long, and a commit's cost
 * grows with its pages. Without it a new row takes the largest id plus one; rows of these tables
 * are never deleted, so ids still only grow and none is ever used twice. SQLite cannot drop the
 * keyword from a table, so each table is rebuilt under the same name, columns, rows and indexes.
 * PostgreSQL's sequences cost no such write: nothing changes there.
 */
export const plainRowIds = (dialect: DialectName): Migration => ({
  up: async (db) => {
    if (dialect !== "sqlite") return;
    for (const table of APPENDED_TABLES) await rebuildWithoutAutoincrement(db, table);
  },
});

interface SchemaRow {
  type: string;
  sql: string;
}

async function rebuildWithoutAutoincrement(db: Kysely<unknown>, table: string): Promise<void> {
  const { rows } = await sql<SchemaRow>`
    select type, sql from sqlite_master where tbl_name = ${table} and sql is not null`.execute(db);
  const create = rows.find((row) => row.type === "table")?.sql;
  if (!create || !/\bautoincrement\b/i.test(create)) return;
  const rebuilt = `${table}_rebuilt`;
  const plainCreate = create
    .replace(/\s+autoincrement\b/i, "")
    .replace(/^create table\s+"?\w+"?/i, `create table "${rebuilt}"`);
  await sql.raw(plainCreate).execute(db);
  await sql.raw(`insert into "${rebuilt}" select * from "${table}"`).execute(db);
  // Dropping the table drops its indexes and its sqlite_sequence row.
  await sql.raw(`drop table "${table}"`).execute(db);
  await sql.raw(`alter table "${rebuilt}" rename to "${table}"`).execute(db);
  for (const index of rows.filter((row) => row.type === "index")) {
    await sql.raw(index.sql).execute(db);
  }
}
