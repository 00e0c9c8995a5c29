import { type RawBuilder, sql } from "kysely";
import type { Db } from "../../db/database.js";
import type { Clock } from "../../util/clock.js";

/** An article to archive; times are Unix milliseconds. */
export interface NewArticle {
  url: string;
  title: string;
  source: string | null;
  summary: string | null;
  text: string;
  publishedAt: number;
  /** When the article was first seen: by Sibyl (feeds) or, for an import, by whoever vouches. */
  firstSeenAt: number;
  /** `feed`: stored by Sibyl's feed watcher as it first saw it; `import`: from a file. */
  origin: ArticleOrigin;
}

export type ArticleOrigin = "feed" | "import";

export interface InsertOutcome {
  /** Rows added: new articles and, from feeds, new versions of edited ones. */
  inserted: number;
  /** Articles left as they were: already archived with the same text (or came twice). */
  duplicates: number;
}

/** Rows per insert statement: well under either database's limit on bound parameters. */
const ROWS_PER_STATEMENT = 100;

/** The version of an archived url that searches without a cutoff show. */
interface CurrentVersion {
  url: string;
  version: number;
  title: string;
  source: string | null;
  summary: string | null;
  text: string;
}

/** Writes to the news archive (`sibyl news import` and the feed watcher). */
export class ArchiveStore {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /**
   * Archives `articles` in one transaction. An article already archived keeps its first
   * `first_seen_at`, which is what makes later backtests honest. An import of an archived url is
   * ignored; a feed item whose url is archived with other text is stored as a new version with
   * its own `first_seen_at`, and the earlier version stays as it was, marked superseded then.
   */
  async insertMany(articles: readonly NewArticle[]): Promise<InsertOutcome> {
    if (articles.length === 0) return { inserted: 0, duplicates: 0 };
    const addedAt = this.clock.now();
    const inserted = await this.db.transaction(async (tx) => {
      let count = 0;
      for (let start = 0; start < articles.length; start += ROWS_PER_STATEMENT) {
        const rows = articles.slice(start, start + ROWS_PER_STATEMENT).map(storableArticle);
        const edited = await editedFeedItems(tx, rows);
        const unedited = rows.filter((article) => !edited.has(article));
        if (unedited.length > 0) count += await tx.changes(insertStatement(unedited, addedAt, 1));
        for (const [article, current] of edited) {
          count += await insertVersion(tx, article, current, addedAt);
        }
      }
      return count;
    });
    return { inserted, duplicates: articles.length - inserted };
  }
}

/** Feed items whose url is archived with another title, publisher, summary or text. */
async function editedFeedItems(
  tx: Db,
  articles: readonly NewArticle[],
): Promise<Map<NewArticle, CurrentVersion>> {
  const edited = new Map<NewArticle, CurrentVersion>();
  const feedItems = articles.filter((article) => article.origin === "feed");
  if (feedItems.length === 0) return edited;
  const urls = [...new Set(feedItems.map((article) => article.url))];
  const current = await tx.rows<CurrentVersion>(sql`
    select url, version, title, source, summary, text from news_articles
    where superseded_at is null and url in (${sql.join(urls)})`);
  const byUrl = new Map(current.map((row) => [row.url, row]));
  for (const article of feedItems) {
    const archived = byUrl.get(article.url);
    if (archived && !sameShownText(article, archived)) edited.set(article, archived);
  }
  return edited;
}

function sameShownText(article: NewArticle, archived: CurrentVersion): boolean {
  return (
    article.title === archived.title &&
    article.source === archived.source &&
    article.summary === archived.summary &&
    article.text === archived.text
  );
}

/**
 * Stores `article` as the version after `current` and marks `current` superseded from the new
 * version's first sight. A concurrent writer that stored that version first wins: nothing here.
 */
async function insertVersion(
  tx: Db,
  article: NewArticle,
  current: CurrentVersion,
  addedAt: number,
): Promise<number> {
  const version = Number(current.version) + 1;
  const inserted = await tx.changes(insertStatement([article], addedAt, version));
  if (inserted === 0) return 0;
  await tx.changes(sql`update news_articles set superseded_at = ${article.firstSeenAt}
    where url = ${article.url} and version = ${Number(current.version)}
      and superseded_at is null`);
  return inserted;
}

function insertStatement(
  articles: readonly NewArticle[],
  addedAt: number,
  version: number,
): RawBuilder<unknown> {
  const rows = articles.map(
    (article) =>
      sql`(${article.url}, ${version}, ${article.title}, ${article.source}, ${article.summary},
        ${article.text}, ${article.publishedAt}, ${article.firstSeenAt}, ${addedAt},
        ${article.origin})`,
  );
  return sql`insert into news_articles
    (url, version, title, source, summary, text, published_at, first_seen_at, added_at, origin)
    values ${sql.join(rows)}
    on conflict (url, version) do nothing`;
}

/** The article as the archive stores it, so that it compares equal with what it stored. */
function storableArticle(article: NewArticle): NewArticle {
  return {
    ...article,
    url: storable(article.url),
    title: storable(article.title),
    source: nullable(article.source),
    summary: nullable(article.summary),
    text: storable(article.text),
  };
}

/** PostgreSQL text cannot hold NUL; it carries no meaning in an article, so it goes everywhere. */
function storable(text: string): string {
  return text.includes("\u0000") ? text.replaceAll("\u0000", "") : text;
}

function nullable(text: string | null): string | null {
  return text === null ? null : storable(text);
}
