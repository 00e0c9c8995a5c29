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
}

export interface InsertOutcome {
  inserted: number;
  /** Articles whose url was already archived (or came twice): left as they were. */
  duplicates: number;
}

/** Rows per insert statement: well under either database's limit on bound parameters. */
const ROWS_PER_STATEMENT = 100;

/** Writes to the news archive (`sibyl news import` and the feed watcher). */
export class ArchiveStore {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /**
   * Archives `articles` in one transaction. Idempotent by url: an article already archived keeps
   * its first `first_seen_at`, which is what makes later backtests honest.
   */
  async insertMany(articles: readonly NewArticle[]): Promise<InsertOutcome> {
    if (articles.length === 0) return { inserted: 0, duplicates: 0 };
    const addedAt = this.clock.now();
    const inserted = await this.db.transaction(async (tx) => {
      let count = 0;
      for (let start = 0; start < articles.length; start += ROWS_PER_STATEMENT) {
        const rows = articles.slice(start, start + ROWS_PER_STATEMENT);
        count += await tx.changes(insertStatement(rows, addedAt));
      }
      return count;
    });
    return { inserted, duplicates: articles.length - inserted };
  }
}

function insertStatement(articles: readonly NewArticle[], addedAt: number): RawBuilder<unknown> {
  const rows = articles.map(
    (article) =>
      sql`(${storable(article.url)}, ${storable(article.title)}, ${nullable(article.source)},
        ${nullable(article.summary)}, ${storable(article.text)}, ${article.publishedAt},
        ${article.firstSeenAt}, ${addedAt})`,
  );
  return sql`insert into news_articles
    (url, title, source, summary, text, published_at, first_seen_at, added_at)
    values ${sql.join(rows)}
    on conflict (url) do nothing`;
}

/** PostgreSQL text cannot hold NUL; it carries no meaning in an article, so it goes everywhere. */
function storable(text: string): string {
  return text.includes("\u0000") ? text.replaceAll("\u0000", "") : text;
}

function nullable(text: string | null): string | null {
  return text === null ? null : storable(text);
}
