import type { HttpSourceOptions } from "../source.js";
import { parseDate, parseLongDate } from "./dates.js";
import {
  arrayField,
  boundedQuery,
  isJsonObject,
  joinedTextField,
  MAX_SNIPPET_CHARS,
  MAX_TEXT_CHARS,
  MAX_TITLE_CHARS,
  objectField,
  textField,
} from "./fields.js";
import { HttpSearchSource, type SearchWire } from "./search-source.js";

/** Brave refuses queries over 400 characters or 50 words. */
const MAX_QUERY_CHARS = 400;
const MAX_QUERY_WORDS = 50;

export const BRAVE_WIRE: SearchWire = {
  provider: "brave",
  honoursCutoff: false,
  defaultBaseUrl: "https://api.search.brave.com",
  /** Brave's `count` accepts at most 20. */
  maxResults: 20,
  keyHeaders: (apiKey) => ({ "x-subscription-token": apiKey }),
  request(query, count) {
    const text = boundedQuery(query, MAX_QUERY_CHARS, MAX_QUERY_WORDS);
    if (text === "") return null;
    return { method: "GET", path: "/res/v1/web/search", query: { q: text, count: String(count) } };
  },
  items(reply, transport) {
    const parsed = transport.json(reply);
    if (!isJsonObject(parsed)) throw transport.failure("reply is not a JSON object");
    // Brave leaves `web` out when nothing matched.
    if (parsed.web === undefined) return [];
    const web = objectField(parsed, "web");
    const items = web ? arrayField(web, "results") : "invalid";
    if (items === null || items === "invalid") {
      throw transport.failure("reply has no web results list");
    }
    return items;
  },
  urlField: "url",
  read(item) {
    const profile = objectField(item, "profile");
    return {
      title: textField(item, "title", MAX_TITLE_CHARS),
      // `page_age` is a timestamp; `age` is either a calendar date or relative ("2 days ago").
      publishedAt: parseDate(item.page_age) ?? parseLongDate(item.age) ?? parseDate(item.age),
      snippet: textField(item, "description", MAX_SNIPPET_CHARS),
      text: joinedTextField(item, "extra_snippets", MAX_TEXT_CHARS),
      source: profile && textField(profile, "name", MAX_TITLE_CHARS),
    };
  },
};

/**
 * Brave Search web results (`GET /res/v1/web/search`, `X-Subscription-Token`). Its `freshness`
 * filter counts back from now, so a cutoff is ignored and the leak guard alone decides what an
 * answer may use. Descriptions carry `<strong>` highlights, which are stripped.
 */
export class BraveSource extends HttpSearchSource {
  constructor(options: HttpSourceOptions) {
    super(BRAVE_WIRE, options);
  }
}
