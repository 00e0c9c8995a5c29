import type {
  HttpSourceOptions,
  ResearchResult,
  ResearchSource,
  SearchOptions,
} from "../source.js";
import { parseDate } from "./dates.js";
import {
  boundedQuery,
  httpUrlField,
  isJsonObject,
  MAX_SNIPPET_CHARS,
  MAX_TEXT_CHARS,
  MAX_TITLE_CHARS,
  resultCount,
  siteName,
  textField,
} from "./fields.js";
import { ProviderTransport, requiredApiKey } from "./transport.js";

/** Tavily's `max_results` accepts at most 20. */
const MAX_RESULTS = 20;
/** Tavily refuses queries longer than 400 characters. */
const MAX_QUERY_CHARS = 400;

/**
 * Tavily web search (`POST /search`, bearer key) with each page's extracted text. Not an as-of
 * source: its date filters are relative or publisher-stated, so a cutoff is ignored and the leak
 * guard alone decides what an answer may use.
 */
export class TavilySource implements ResearchSource {
  readonly provider = "tavily";
  readonly honoursCutoff = false;
  private readonly transport: ProviderTransport;
  private readonly apiKey: string;

  constructor(options: HttpSourceOptions) {
    this.apiKey = requiredApiKey(this.provider, options);
    this.transport = new ProviderTransport(this.provider, options);
  }

  async search(query: string, options: SearchOptions): Promise<ResearchResult[]> {
    const count = resultCount(options.limit, MAX_RESULTS);
    const text = boundedQuery(query, MAX_QUERY_CHARS);
    if (count === 0 || text === "") return [];
    const reply = await this.transport.send(
      {
        method: "POST",
        path: "/search",
        headers: { authorization: `Bearer ${this.apiKey}` },
        json: {
          query: text,
          max_results: count,
          search_depth: "basic",
          topic: "general",
          include_answer: false,
          include_raw_content: true,
        },
      },
      options.signal,
    );
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
      publishedAt: parseDate(item.published_date),
      firstSeenAt: null,
      snippet: textField(item, "content", MAX_SNIPPET_CHARS),
      text: textField(item, "raw_content", MAX_TEXT_CHARS),
      trust: "untrusted",
      source: siteName(url),
    },
  ];
}
