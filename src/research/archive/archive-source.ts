import type { RawBuilder } from "kysely";
import type { Db } from "../../db/database.js";
import {
  type ResearchResult,
  type ResearchSource,
  ResearchSourceError,
  type SearchOptions,
} from "../source.js";
import { excerpt, SNIPPET_CHARACTERS, shorten } from "./excerpt.js";
import { queryTerms } from "./query-terms.js";
import {
  type ArticleRow,
  archiveSizeStatement,
  searchStatement,
  termCountsStatement,
} from "./search-statement.js";

/** Most results one search returns, whatever the caller asks for. */
export const MAX_ARCHIVE_RESULTS = 50;

/** Longest article text returned: more would only be cut again by the token budget. */
export const ARCHIVE_TEXT_CHARACTERS = 20_000;

/** How far into an article a snippet may come from: the match may lie past the text returned. */
const SNIPPET_SEARCH_CHARACTERS = 200_000;

/** Below this many articles every word of a query is kept: ranking them all is cheap. */
const COMMON_WORDS_FROM_ARTICLES = 5_000;

/**
 * A word held by more than this share of the archive is left out of the search. It adds next to
 * nothing to the ranking (its inverse document frequency is about zero) and costs the most:
 * ranking visits every article that holds any of the words.
 */
const COMMON_WORD_SHARE = 0.2;

/** Words kept when all of a query's words are common, so that it still finds something. */
const WORDS_KEPT_WHEN_ALL_COMMON = 2;

/**
 * The local news archive (`sibyl news import`, the feed watcher) as a research source. It
 * honours a cutoff exactly: an article is eligible only when it was both published and first
 * seen at or before it, and the database itself applies that rule.
 */
export class ArchiveSource implements ResearchSource {
  readonly provider = "archive";
  readonly honoursCutoff = true;

  constructor(private readonly db: Db) {}

  async search(query: string, options: SearchOptions): Promise<ResearchResult[]> {
    if (options.signal?.aborted) {
      throw new ResearchSourceError(this.provider, "search cancelled", {
        cause: options.signal.reason,
      });
    }
    const cutoffMs = options.cutoff === null ? null : options.cutoff.getTime();
    if (cutoffMs !== null && Number.isNaN(cutoffMs)) {
      throw new ResearchSourceError(this.provider, "the cutoff is not a valid date");
    }
    const limit = Math.min(Math.floor(options.limit), MAX_ARCHIVE_RESULTS);
    const words = queryTerms(query);
    if (!(limit > 0) || words.length === 0) return [];

    try {
      const terms = await this.distinctiveTerms(words);
      if (terms.length === 0) return [];
      const statement = searchStatement(this.db.dialect, {
        terms,
        cutoffMs,
        limit,
        textCharacters: SNIPPET_SEARCH_CHARACTERS,
      });
      const rows = await this.read(statement);
      return rows.map((row) => toResult(row, terms));
    } catch (error) {
      throw new ResearchSourceError(this.provider, "the archive search failed", { cause: error });
    }
  }

  /**
   * The query's words without those that most of the archive holds (see COMMON_WORD_SHARE),
   * and none at all when the archive is empty.
   */
  private async distinctiveTerms(words: string[]): Promise<string[]> {
    const [sized] = await this.read(archiveSizeStatement());
    const size = Number(sized?.size ?? 0);
    if (size === 0) return [];
    if (size < COMMON_WORDS_FROM_ARTICLES || words.length === 1) return words;
    const cap = Math.ceil(size * COMMON_WORD_SHARE);
    const [counts] = await this.read(termCountsStatement(this.db.dialect, words, cap));
    const held = words.map((word, index) => ({ word, count: Number(counts?.[`c${index}`] ?? 0) }));
    const distinctive = held.filter(({ count }) => count > 0 && count < cap);
    return distinctive.length > 0
      ? distinctive.map(({ word }) => word)
      : words.slice(0, WORDS_KEPT_WHEN_ALL_COMMON);
  }

  /** Through the query builder, not `db.rows`: a read must not wait for SQLite's write lock. */
  private async read<R>(statement: RawBuilder<R>): Promise<R[]> {
    return (await statement.execute(this.db.query)).rows;
  }
}

function toResult(row: ArticleRow, terms: readonly string[]): ResearchResult {
  const summary = row.summary?.trim() ? shorten(row.summary, SNIPPET_CHARACTERS) : null;
  const hasText = row.text.trim() !== "";
  return {
    url: row.url,
    title: row.title.trim() === "" ? null : row.title,
    publishedAt: new Date(Number(row.published_at)),
    firstSeenAt: new Date(Number(row.first_seen_at)),
    snippet: summary ?? (hasText ? excerpt(row.text, terms) : null),
    text: hasText ? truncate(row.text, ARCHIVE_TEXT_CHARACTERS) : null,
    source: row.source,
    // Only text the feed watcher stored as it first saw it is Sibyl's own record.
    trust: row.origin === "feed" ? "trusted" : "untrusted",
  };
}

function truncate(text: string, characters: number): string {
  if (text.length <= characters) return text;
  // Do not keep half of a surrogate pair.
  const last = text.charCodeAt(characters - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? characters - 1 : characters);
}
