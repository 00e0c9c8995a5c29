import type {
  HttpSourceOptions,
  ResearchResult,
  ResearchSource,
  SearchOptions,
} from "../source.js";
import { parseDate } from "./dates.js";
import {
  httpUrlField,
  isJsonObject,
  MAX_SNIPPET_CHARS,
  MAX_TITLE_CHARS,
  resultCount,
  siteName,
  textField,
} from "./fields.js";
import { ProviderTransport } from "./transport.js";

/** One page of SearXNG results holds a few dozen at most; more would need `pageno`. */
const MAX_RESULTS = 50;

/**
 * A self-hosted SearXNG instance (`GET /search?format=json`). Its only date filter, `time_range`,
 * counts back from now, so it cannot serve an as-of search: a cutoff is ignored here and the leak
 * guard alone decides what an answer may use.
 */
export class SearxngSource implements ResearchSource {
  readonly provider = "searxng";
  readonly honoursCutoff = false;
  private readonly transport: ProviderTransport;

  constructor(options: HttpSourceOptions) {
    this.transport = new ProviderTransport(this.provider, options);
  }

  async search(query: string, options: SearchOptions): Promise<ResearchResult[]> {
    const count = resultCount(options.limit, MAX_RESULTS);
    if (count === 0 || query.trim() === "") return [];
    const reply = await this.transport.send(
      { method: "GET", path: "/search", query: { q: query.trim(), format: "json" } },
      options.signal,
    );
    if (reply.status === 403) {
      throw this.transport.statusFailure(
        reply,
        "is `json` listed in search.formats of settings.yml?",
      );
    }
    return this.transport
      .resultsList(reply, "results")
      .flatMap((item) => readResult(item))
      .slice(0, count);
  }
}

function readResult(item: unknown): ResearchResult[] {
  if (!isJsonObject(item)) return [];
  const url = httpUrlField(item, "url");
  if (url === null) return [];
  return [
    {
      url,
      title: textField(item, "title", MAX_TITLE_CHARS),
      publishedAt: parseDate(item.publishedDate),
      firstSeenAt: null,
      snippet: textField(item, "content", MAX_SNIPPET_CHARS),
      text: null,
      trust: "untrusted",
      source: siteName(url),
    },
  ];
}
