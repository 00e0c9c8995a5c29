import { type Kysely, type Migration, sql } from "kysely";
import type { DialectName } from "../connect.js";

/**
 * Archived articles become versioned. An item the feed watcher sees again under the same url with
 * other text is a new row (`version` one higher) with its own `first_seen_at`; the earlier row's
 * text and dates never change, only its `superseded_at` is set, once, to the new version's
 * `first_seen_at`. A search with a cutoff then shows the version current at the cutoff: first seen
 * at or before it and not yet superseded by then.
 *
 * The url stops being unique on its own: SQLite cannot drop a column's UNIQUE, so the table is
 * rebuilt there with the same rows and ids (the full-text index, keyed by id, stays valid).
 */
export const newsVersions = (dialect: DialectName): Migration => ({
  up: (db) => (dialect === "postgres" ? upPostgres(db) : upSqlite(db)),
});

async function upPostgres(db: Kysely<unknown>): Promise<void> {
  await sql`alter table news_articles drop constraint if exists news_articles_url_key`.execute(db);
  await addVersionColumns(db);
  await sql`create unique index news_articles_url_version on news_articles (url, version)`.execute(
    db,
  );
}

interface SchemaRow {
  sql: string;
}

async function upSqlite(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<SchemaRow>`
    select sql from sqlite_master where type = 'table' and name = 'news_articles'`.execute(db);
  const create = rows[0]?.sql;
  if (!create) throw new Error("news_articles is missing");
  const rebuiltCreate = create
    .replace(/("url"|\burl\b)\s+text\s+not null\s+unique/i, "$1 text not null")
    .replace(/^create table\s+"?news_articles"?/i, 'create table "news_articles_rebuilt"');
  if (rebuiltCreate === create || /\bunique\b/i.test(rebuiltCreate)) {
    throw new Error("news_articles: unexpected schema, url constraint not found");
  }
  await sql.raw(rebuiltCreate).execute(db);
  await sql`insert into news_articles_rebuilt select * from news_articles`.execute(db);
  // Dropping the table drops its triggers and indexes first: no trigger fires on its rows.
  await sql`drop table news_articles`.execute(db);
  await sql`alter table news_articles_rebuilt rename to news_articles`.execute(db);
  await addVersionColumns(db);
  await sql`create unique index news_articles_url_version on news_articles (url, version)`.execute(
    db,
  );
  // The dates a cutoff checks, read from this narrow index rather than the wide rows.
  await sql`create index news_articles_eligibility
    on news_articles (id, published_at, first_seen_at, superseded_at)`.execute(db);
  await sql`create trigger news_articles_fts_insert after insert on news_articles begin
    insert into news_articles_fts (rowid, title, summary, text)
      values (new.id, new.title, new.summary, new.text);
  end`.execute(db);
  await sql`create trigger news_articles_fts_delete after delete on news_articles begin
    insert into news_articles_fts (news_articles_fts, rowid, title, summary, text)
      values ('delete', old.id, old.title, old.summary, old.text);
  end`.execute(db);
  // Only a change of indexed words re-indexes: marking a version superseded does not.
  await sql`create trigger news_articles_fts_update after update of title, summary, text
    on news_articles begin
    insert into news_articles_fts (news_articles_fts, rowid, title, summary, text)
      values ('delete', old.id, old.title, old.summary, old.text);
    insert into news_articles_fts (rowid, title, summary, text)
      values (new.id, new.title, new.summary, new.text);
  end`.execute(db);
}

async function addVersionColumns(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("news_articles")
    .addColumn("version", "integer", (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.alterTable("news_articles").addColumn("superseded_at", "bigint").execute();
}
