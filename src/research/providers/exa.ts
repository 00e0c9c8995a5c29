import type { HttpSourceOptions } from "../source.js";
import { parseDate } from "./dates.js";
import {
  joinedTextField,
  MAX_SNIPPET_CHARS,
  MAX_TEXT_CHARS,
  MAX_TITLE_CHARS,
  textField,
} from "./fields.js";
import { HttpSearchSource, type SearchWire } from "./search-source.js";

export const EXA_WIRE: SearchWire = {
  provider: "exa",
  honoursCutoff: true,
  defaultBaseUrl: "https://api.exa.ai",
  /** Exa serves at most 100 results per search. */
  maxResults: 100,
  keyHeaders: (apiKey) => ({ "x-api-key": apiKey }),
  request(query, count, cutoff) {
    if (query.trim() === "") return null;
    const contents: Record<string, unknown> = {
      text: { maxCharacters: MAX_TEXT_CHARS },
      highlights: { maxCharacters: MAX_SNIPPET_CHARS },
    };
    const body: Record<string, unknown> = {
      query: query.trim(),
      numResults: count,
      category: "news",
      contents,
    };
    if (cutoff) {
      contents.maxAgeHours = -1;
      contents.livecrawl = "never";
      body.endPublishedDate = cutoff.toISOString();
      body.endCrawlDate = cutoff.toISOString();
    }
    return { method: "POST", path: "/search", json: body };
  },
  urlField: "url",
  read: (item) => ({
    title: textField(item, "title", MAX_TITLE_CHARS),
    publishedAt: parseDate(item.publishedDate),
    snippet:
      joinedTextField(item, "highlights", MAX_SNIPPET_CHARS) ??
      textField(item, "summary", MAX_SNIPPET_CHARS),
    text: textField(item, "text", MAX_TEXT_CHARS),
    source: null,
  }),
};

/**
 * Exa search (`POST /search`) over its news category, with page text and query highlights.
 * A cutoff becomes `endPublishedDate` (which also drops undated pages) and `endCrawlDate`, so a
 * page Exa first crawled after the cutoff is excluded even when its stated date is earlier. Those
 * bound when a page was published or found, not when the text returned was fetched: with a
 * cutoff, text comes from Exa's cache only (`maxAgeHours: -1`, and the older `livecrawl: "never"`),
 * never from a crawl made now. A cached copy may still postdate the cutoff, which is why Exa's
 * text is untrusted and read by the strict guard.
 */
export class ExaSource extends HttpSearchSource {
  constructor(options: HttpSourceOptions) {
    super(EXA_WIRE, options);
  }
}
