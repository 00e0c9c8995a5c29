import type { HttpSourceOptions } from "../source.js";
import { parseDate } from "./dates.js";
import { MAX_SNIPPET_CHARS, MAX_TITLE_CHARS, textField } from "./fields.js";
import { HttpSearchSource, type SearchWire } from "./search-source.js";

export const SEARXNG_WIRE: SearchWire = {
  provider: "searxng",
  honoursCutoff: false,
  defaultBaseUrl: null,
  /** One page of SearXNG results holds a few dozen at most; more would need `pageno`. */
  maxResults: 50,
  request(query) {
    if (query.trim() === "") return null;
    return { method: "GET", path: "/search", query: { q: query.trim(), format: "json" } };
  },
  /** An instance refuses JSON with 403 unless its settings allow that format. */
  items(reply, transport) {
    if (reply.status === 403) {
      throw transport.statusFailure(reply, "is `json` listed in search.formats of settings.yml?");
    }
    return transport.resultsList(reply, "results");
  },
  urlField: "url",
  read: (item) => ({
    title: textField(item, "title", MAX_TITLE_CHARS),
    publishedAt: parseDate(item.publishedDate),
    snippet: textField(item, "content", MAX_SNIPPET_CHARS),
    text: null,
    source: null,
  }),
};

/**
 * A self-hosted SearXNG instance (`GET /search?format=json`). Its only date filter, `time_range`,
 * counts back from now, so it cannot serve an as-of search: a cutoff is ignored here and the leak
 * guard alone decides what an answer may use.
 */
export class SearxngSource extends HttpSearchSource {
  constructor(options: HttpSourceOptions) {
    super(SEARXNG_WIRE, options);
  }
}
