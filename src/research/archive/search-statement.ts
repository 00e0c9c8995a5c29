import { type RawBuilder, sql } from "kysely";
import type { DialectName } from "../../db/database.js";

/** One archived article as the search returns it; times are Unix milliseconds. */
export interface ArticleRow {
  url: string;
  title: string;
  source: string | null;
  summary: string | null;
  /** The article's text, cut to `textCharacters`. */
  text: string;
  published_at: number;
  first_seen_at: number;
  origin: string;
}

export interface ArchiveQuery {
  /** Plain words (see query-terms.ts): never passed to a query parser as syntax. */
  terms: readonly string[];
  /**
   * Unix milliseconds; articles published or first seen after it are not eligible, and of an
   * edited article only the version current at the cutoff is.
   */
  cutoffMs: number | null;
  limit: number;
  textCharacters: number;
}

/**
 * The best-ranked eligible articles for the query: any of its words matches, and articles that
 * match more of them, or match in their titles, rank higher. Ranking picks ids first, so only
 * the few articles returned are read whole.
 */
export function searchStatement(dialect: DialectName, query: ArchiveQuery): RawBuilder<ArticleRow> {
  return dialect === "postgres" ? postgresSearch(query) : sqliteSearch(query);
}

/** The highest article id: the archive's size, near enough (ids are never reused). */
export function archiveSizeStatement(): RawBuilder<{ size: number | null }> {
  return sql`select max(id) as size from news_articles`;
}

/**
 * For each term, how many articles hold it, counted no further than `cap`: a term found in a
 * large share of the archive ranks nothing and costs the most to rank, so it is worth knowing.
 */
export function termCountsStatement(
  dialect: DialectName,
  terms: readonly string[],
  cap: number,
): RawBuilder<Record<string, number>> {
  const counts = terms.map((term, index) => {
    const holding =
      dialect === "postgres"
        ? sql`select 1 from news_articles where search @@ plainto_tsquery('english', ${term})`
        : sql`select 1 from news_articles_fts where news_articles_fts match ${ftsString(term)}`;
    return sql`(select count(*) from (${holding} limit ${cap}) as hits) as ${sql.ref(`c${index}`)}`;
  });
  return sql`select ${sql.join(counts)}`;
}

/** A word as an FTS5 string: inside double quotes only `"` is special, and it is doubled. */
function ftsString(term: string): string {
  return `"${term.replaceAll('"', '""')}"`;
}

/**
 * The version of each article current at the cutoff: published and first seen by then, and not
 * yet superseded by a later version first seen by then. Without a cutoff, the latest version.
 */
function currentAt(table: string, cutoffMs: number | null): RawBuilder<unknown> {
  const row = sql.ref(table);
  if (cutoffMs === null) return sql`${row}.superseded_at is null`;
  return sql`${row}.published_at <= ${cutoffMs}
    and ${row}.first_seen_at <= ${cutoffMs}
    and (${row}.superseded_at is null or ${row}.superseded_at > ${cutoffMs})`;
}

/** bm25 weights of the FTS5 columns: title, summary, text. */
const SQLITE_WEIGHTS = sql.raw("10.0, 4.0, 1.0");

function sqliteSearch(query: ArchiveQuery): RawBuilder<ArticleRow> {
  const match = query.terms.map(ftsString).join(" OR ");
  // Dates read from the narrow eligibility index, not from the wide rows.
  const eligible = sql`join news_articles candidate indexed by news_articles_eligibility
      on candidate.id = news_articles_fts.rowid
    where news_articles_fts match ${match} and ${currentAt("candidate", query.cutoffMs)}`;
  return sql<ArticleRow>`
    select a.url, a.title, a.source, a.summary, substr(a.text, 1, ${query.textCharacters}) as text,
      a.published_at, a.first_seen_at, a.origin
    from (
      select news_articles_fts.rowid as id, bm25(news_articles_fts, ${SQLITE_WEIGHTS}) as score
      from news_articles_fts ${eligible}
      order by score
      limit ${query.limit}
    ) ranked
    join news_articles a on a.id = ranked.id
    order by ranked.score, a.id`;
}

function postgresSearch(query: ArchiveQuery): RawBuilder<ArticleRow> {
  // One parameter per word, each read by plainto_tsquery, which has no operators at all.
  const tsquery = sql.join(
    query.terms.map((term) => sql`plainto_tsquery('english', ${term})`),
    sql` || `,
  );
  const eligible = sql`and ${currentAt("candidate", query.cutoffMs)}`;
  // Normalization 1 divides by 1 + log(length): long articles do not win on length alone.
  return sql<ArticleRow>`
    with ranked as (
      select candidate.id, ts_rank_cd(candidate.search, words.query, 1) as score
      from news_articles candidate, (select ${tsquery} as query) words
      where candidate.search @@ words.query ${eligible}
      order by score desc, candidate.id
      limit ${query.limit}
    )
    select a.url, a.title, a.source, a.summary, left(a.text, ${query.textCharacters}) as text,
      a.published_at, a.first_seen_at, a.origin
    from ranked join news_articles a on a.id = ranked.id
    order by ranked.score desc, a.id`;
}
