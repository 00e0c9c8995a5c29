import type { HttpSourceOptions } from "../source.js";
import { parseDate } from "./dates.js";
import {
  boundedQuery,
  MAX_SNIPPET_CHARS,
  MAX_TEXT_CHARS,
  MAX_TITLE_CHARS,
  textField,
} from "./fields.js";
import { HttpSearchSource, type SearchWire } from "./search-source.js";

/** Tavily refuses queries longer than 400 characters. */
const MAX_QUERY_CHARS = 400;

export const TAVILY_WIRE: SearchWire = {
  provider: "tavily",
  honoursCutoff: false,
  defaultBaseUrl: "https://api.tavily.com",
  /** Tavily's `max_results` accepts at most 20. */
  maxResults: 20,
  keyHeaders: (apiKey) => ({ authorization: `Bearer ${apiKey}` }),
  request(query, count) {
    const text = boundedQuery(query, MAX_QUERY_CHARS);
    if (text === "") return null;
    return {
      method: "POST",
      path: "/search",
      json: {
        query: text,
        max_results: count,
        search_depth: "basic",
        topic: "general",
        include_answer: false,
        include_raw_content: true,
      },
    };
  },
  urlField: "url",
  read: (item) => ({
    title: textField(item, "title", MAX_TITLE_CHARS),
    publishedAt: parseDate(item.published_date),
    snippet: textField(item, "content", MAX_SNIPPET_CHARS),
    text: textField(item, "raw_content", MAX_TEXT_CHARS),
    source: null,
  }),
};

/**
 * Tavily web search (`POST /search`, bearer key) with each page's extracted text. Not an as-of
 * source: its date filters are relative or publisher-stated, so a cutoff is ignored and the leak
 * guard alone decides what an answer may use.
 */
export class TavilySource extends HttpSearchSource {
  constructor(options: HttpSourceOptions) {
    super(TAVILY_WIRE, options);
  }
}
