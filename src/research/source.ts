/**
 * One research source (a news archive, a search API) behind the interface every provider
 * implements. Providers only fetch: the leak guard, ranking, budgets and billing happen above them.
 */

/**
 * How far a result's text may be believed about when it was written. `trusted`: text Sibyl's own
 * feed watcher stored when it first saw it (immutable, dated by Sibyl). `untrusted`: everything
 * else (search providers, imported archives), whatever dates it claims.
 */
export type Trust = "trusted" | "untrusted";

export interface ResearchResult {
  url: string;
  title: string | null;
  /** Publication time as the source states it; null when it states none. */
  publishedAt: Date | null;
  /** When Sibyl first saw the item (the archive knows this); null for live providers. */
  firstSeenAt: Date | null;
  /** Short excerpt chosen by the provider (search highlight, summary); null when none. */
  snippet: string | null;
  /** Longer body text when the provider returns it; null when none. */
  text: string | null;
  /** Publisher or site name when known. */
  source: string | null;
  trust: Trust;
}

export interface SearchOptions {
  /** Only items published (and first seen) at or before this instant; null = no cutoff. */
  cutoff: Date | null;
  /** At most this many results. */
  limit: number;
  signal?: AbortSignal;
}

export interface ResearchSource {
  /** The configured provider name (`archive`, `gdelt`, `searxng`, …). */
  readonly provider: string;
  /** Whether the provider can restrict its results to a cutoff (its filter is still not trusted). */
  readonly honoursCutoff: boolean;
  search(query: string, options: SearchOptions): Promise<ResearchResult[]>;
}

/** Settings shared by providers reached over HTTP. */
export interface HttpSourceOptions {
  /** The provider's API root, e.g. `https://api.gdeltproject.org`; tests point it at loopback. */
  baseUrl: string;
  /** Secret read from the configured `api_key_env`; null when the provider needs none. */
  apiKey: string | null;
  /** Whole-request time limit. */
  timeoutMs: number;
}

/** A source that could not answer (unreachable, timed out, refused, unreadable reply). */
export class ResearchSourceError extends Error {
  constructor(
    readonly provider: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${provider}: ${message}`, options);
    this.name = "ResearchSourceError";
  }
}
