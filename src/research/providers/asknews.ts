import type { HttpSourceOptions } from "../source.js";
import { parseDate } from "./dates.js";
import { MAX_SNIPPET_CHARS, MAX_TEXT_CHARS, MAX_TITLE_CHARS, textField } from "./fields.js";
import { HttpSearchSource, type SearchWire } from "./search-source.js";

/**
 * How far before the cutoff to search. AskNews's own clients send a 24-hour `hours_back` unless
 * told otherwise; an explicit start of 90 days before the cutoff (as for GDELT) leaves no doubt
 * about the window and covers the run-up to a question's as-of date.
 */
const WINDOW_MS = 90 * 86_400_000;

export const ASKNEWS_WIRE: SearchWire = {
  provider: "asknews",
  honoursCutoff: true,
  defaultBaseUrl: "https://api.asknews.app",
  /** The most articles one search asks for. */
  maxResults: 100,
  keyHeaders: (apiKey) => ({ authorization: `Bearer ${apiKey}` }),
  request(query, count, cutoff) {
    if (query.trim() === "") return null;
    const params: Record<string, string> = {
      query: query.trim(),
      n_articles: String(count),
      return_type: "dicts",
      historical: "true",
    };
    if (cutoff) {
      const end = Math.floor(cutoff.getTime() / 1000);
      params.start_timestamp = String(Math.max(0, end - WINDOW_MS / 1000));
      params.end_timestamp = String(end);
      params.time_filter = "crawl_date";
    }
    return { method: "GET", path: "/v1/news/search", query: params };
  },
  /** No match may come without an `as_dicts` list. */
  items: (reply, transport) => transport.optionalList(transport.json(reply), "as_dicts") ?? [],
  urlField: "article_url",
  read: (article) => ({
    title:
      textField(article, "eng_title", MAX_TITLE_CHARS) ??
      textField(article, "title", MAX_TITLE_CHARS),
    publishedAt: parseDate(article.pub_date),
    snippet: textField(article, "summary", MAX_SNIPPET_CHARS),
    text: textField(article, "full_text", MAX_TEXT_CHARS),
    source:
      textField(article, "domain_url", MAX_TITLE_CHARS) ??
      textField(article, "source_id", MAX_TITLE_CHARS),
  }),
};

/**
 * AskNews news search (`GET /v1/news/search`, API key as a bearer token) over its historical
 * archive, returning structured articles (`return_type=dicts`). A cutoff becomes `end_timestamp`
 * (Unix seconds) with `time_filter=crawl_date`: AskNews then drops articles it crawled after the
 * cutoff, and the leak guard checks each article's own `pub_date`, so both bounds hold.
 */
export class AskNewsSource extends HttpSearchSource {
  constructor(options: HttpSourceOptions) {
    super(ASKNEWS_WIRE, options);
  }
}
