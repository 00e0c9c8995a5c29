import type {
  HttpSourceOptions,
  ResearchResult,
  ResearchSource,
  SearchOptions,
} from "../source.js";
import { parseDate } from "./dates.js";
import {
  arrayField,
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

/** The most articles one search asks for. */
const MAX_ARTICLES = 100;

/**
 * How far before the cutoff to search. AskNews's own clients send a 24-hour `hours_back` unless
 * told otherwise; an explicit start of 90 days before the cutoff (as for GDELT) leaves no doubt
 * about the window and covers the run-up to a question's as-of date.
 */
const WINDOW_MS = 90 * 86_400_000;

/**
 * AskNews news search (`GET /v1/news/search`, API key as a bearer token) over its historical
 * archive, returning structured articles (`return_type=dicts`). A cutoff becomes `end_timestamp`
 * (Unix seconds) with `time_filter=crawl_date`: AskNews then drops articles it crawled after the
 * cutoff, and the leak guard checks each article's own `pub_date`, so both bounds hold.
 */
export class AskNewsSource implements ResearchSource {
  readonly provider = "asknews";
  readonly honoursCutoff = true;
  private readonly transport: ProviderTransport;
  private readonly apiKey: string;

  constructor(options: HttpSourceOptions) {
    this.apiKey = requiredApiKey(this.provider, options);
    this.transport = new ProviderTransport(this.provider, options);
  }

  async search(query: string, options: SearchOptions): Promise<ResearchResult[]> {
    const count = resultCount(options.limit, MAX_ARTICLES);
    if (count === 0 || query.trim() === "") return [];
    const params: Record<string, string> = {
      query: query.trim(),
      n_articles: String(count),
      return_type: "dicts",
      historical: "true",
    };
    if (options.cutoff) {
      const end = Math.floor(options.cutoff.getTime() / 1000);
      params.start_timestamp = String(Math.max(0, end - WINDOW_MS / 1000));
      params.end_timestamp = String(end);
      params.time_filter = "crawl_date";
    }
    const reply = await this.transport.send(
      {
        method: "GET",
        path: "/v1/news/search",
        query: params,
        headers: { authorization: `Bearer ${this.apiKey}` },
      },
      options.signal,
    );
    const parsed = this.transport.json(reply);
    const articles = isJsonObject(parsed) ? arrayField(parsed, "as_dicts") : "invalid";
    if (articles === "invalid") throw this.transport.failure("reply has no as_dicts list");
    return (articles ?? []).flatMap((article) => readArticle(article)).slice(0, count);
  }
}

function readArticle(article: unknown): ResearchResult[] {
  if (!isJsonObject(article)) return [];
  const url = httpUrlField(article, "article_url");
  if (url === null) return [];
  return [
    {
      url,
      title:
        textField(article, "eng_title", MAX_TITLE_CHARS) ??
        textField(article, "title", MAX_TITLE_CHARS),
      publishedAt: parseDate(article.pub_date),
      firstSeenAt: null,
      snippet: textField(article, "summary", MAX_SNIPPET_CHARS),
      text: textField(article, "full_text", MAX_TEXT_CHARS),
      trust: "untrusted",
      source:
        textField(article, "domain_url", MAX_TITLE_CHARS) ??
        textField(article, "source_id", MAX_TITLE_CHARS) ??
        siteName(url),
    },
  ];
}
