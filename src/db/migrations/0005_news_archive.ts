import { type Kysely, type Migration, sql } from "kysely";
import type { DialectName } from "../connect.js";
import { serialPrimaryKey } from "./columns.js";

/**
 * The local news archive. Its times are Unix milliseconds, not seconds: a backtest's cutoff is
 * compared with them exactly, and rounding either side could let an article through that came
 * out (or was first seen) a fraction of a second after the cutoff.
 *
 * Full-text search: an FTS5 table kept in sync by triggers on SQLite, a generated `tsvector`
 * with a GIN index on PostgreSQL. Titles weigh most, then summaries, then the text.
 */
export const newsArchive = (dialect: DialectName): Migration => ({
  up: (db) => up(db, dialect),
});

/** Longest stretch of an article's text indexed on PostgreSQL (a tsvector holds at most 1 MB). */
const POSTGRES_INDEXED_CHARACTERS = 100_000;

async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await db.schema
    .createTable("news_articles")
    .$call(serialPrimaryKey(dialect))
    // Dates before the long text: SQLite reads a row's columns in order.
    .addColumn("published_at", "bigint", (c) => c.notNull())
    .addColumn("first_seen_at", "bigint", (c) => c.notNull())
    .addColumn("added_at", "bigint", (c) => c.notNull())
    .addColumn("url", "text", (c) => c.notNull().unique())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("source", "text")
    .addColumn("summary", "text")
    .addColumn("text", "text", (c) => c.notNull())
    .$call((table) =>
      dialect === "postgres"
        ? table.addColumn("search", sql`tsvector`, (c) =>
            c
              .generatedAlwaysAs(
                sql`setweight(to_tsvector('english', title), 'A')
                  || setweight(to_tsvector('english', coalesce(summary, '')), 'B')
                  || setweight(to_tsvector('english', left(text, ${sql.lit(POSTGRES_INDEXED_CHARACTERS)})), 'D')`,
              )
              .stored(),
          )
        : table,
    )
    .execute();
  if (dialect === "postgres") {
    await sql`create index news_articles_search on news_articles using gin (search)`.execute(db);
    return;
  }
  // A search with a cutoff checks the dates of every matching article; read from this narrow
  // index, not from the wide rows, that costs a third as much.
  await sql`create index news_articles_eligibility
    on news_articles (id, published_at, first_seen_at)`.execute(db);
  // External content: the words are indexed, the text itself is stored once, in news_articles.
  await sql`create virtual table news_articles_fts using fts5(
    title, summary, text,
    content = 'news_articles', content_rowid = 'id',
    tokenize = 'porter unicode61 remove_diacritics 2'
  )`.execute(db);
  await sql`create trigger news_articles_fts_insert after insert on news_articles begin
    insert into news_articles_fts (rowid, title, summary, text)
      values (new.id, new.title, new.summary, new.text);
  end`.execute(db);
  await sql`create trigger news_articles_fts_delete after delete on news_articles begin
    insert into news_articles_fts (news_articles_fts, rowid, title, summary, text)
      values ('delete', old.id, old.title, old.summary, old.text);
  end`.execute(db);
  await sql`create trigger news_articles_fts_update after update on news_articles begin
    insert into news_articles_fts (news_articles_fts, rowid, title, summary, text)
      values ('delete', old.id, old.title, old.summary, old.text);
    insert into news_articles_fts (rowid, title, summary, text)
      values (new.id, new.title, new.summary, new.text);
  end`.execute(db);
}
