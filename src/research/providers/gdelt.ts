import type { HttpSourceOptions, ResearchSourceError } from "../source.js";
import { formatGdeltDate, parseGdeltDate } from "./dates.js";
import { errorDetail } from "./error-detail.js";
import { isJsonObject, MAX_TITLE_CHARS, textField } from "./fields.js";
import { gdeltQuery } from "./gdelt-query.js";
import { HttpSearchSource, type SearchWire } from "./search-source.js";
import type { ProviderReply, ProviderTransport } from "./transport.js";

/**
 * How far before the cutoff to search. GDELT needs a start with an end; 90 days matches the API's
 * own default span (its "last 3 months"), reaches well past the weeks a forecast usually turns on,
 * and keeps the 250 records concentrated near the as-of date rather than spread over years.
 */
const WINDOW_MS = 90 * 86_400_000;

/** The full-text index starts on 1 January 2017; earlier start dates are refused. */
const INDEX_START = Date.UTC(2017, 0, 1);

export const GDELT_WIRE: SearchWire = {
  provider: "gdelt",
  honoursCutoff: true,
  defaultBaseUrl: "https://api.gdeltproject.org",
  /** The DOC API returns at most 250 articles per request. */
  maxResults: 250,
  request(query, count, cutoff) {
    const keywords = gdeltQuery(query);
    if (keywords === null) return null;
    const params: Record<string, string> = {
      query: keywords,
      mode: "artlist",
      format: "json",
      maxrecords: String(count),
      sort: "hybridrel",
    };
    if (cutoff) {
      const end = cutoff.getTime();
      if (end < INDEX_START) return null;
      params.startdatetime = formatGdeltDate(new Date(Math.max(INDEX_START, end - WINDOW_MS)));
      params.enddatetime = formatGdeltDate(cutoff);
    }
    return { method: "GET", path: "/api/v2/doc/doc", query: params };
  },
  /** With no match GDELT sends `{}`, without an `articles` list. */
  items: (reply, transport) => transport.optionalList(readBody(reply, transport), "articles") ?? [],
  urlField: "url",
  read: (article) => ({
    title: textField(article, "title", MAX_TITLE_CHARS),
    publishedAt: parseGdeltDate(article.seendate),
    snippet: null,
    text: null,
    source: textField(article, "domain", MAX_TITLE_CHARS),
  }),
};

/**
 * GDELT DOC 2.0 article search (`mode=artlist`). Articles carry a title and `seendate` (when GDELT
 * first saw them, which is also the only publication bound GDELT gives) but no snippet or text.
 */
export class GdeltSource extends HttpSearchSource {
  constructor(options: HttpSourceOptions) {
    super(GDELT_WIRE, options);
  }
}

/**
 * GDELT answers bad queries and rate limiting with HTTP 200 and a line of plain text (or HTML)
 * instead of JSON; that text is the error. Its JSON may carry raw control characters from scraped
 * titles, which are not valid JSON and are replaced by spaces.
 */
function readBody(reply: ProviderReply, transport: ProviderTransport): Record<string, unknown> {
  if (reply.status < 200 || reply.status > 299) throw transport.statusFailure(reply);
  const text = reply.text.trim();
  let body: unknown;
  try {
    body = JSON.parse(text.replace(/\p{Cc}/gu, " "));
  } catch (error) {
    if (!text.startsWith("{") && !text.startsWith("[")) throw refusal(text, transport);
    throw transport.failure(`unreadable JSON reply (${text.length} characters)`, error);
  }
  if (!isJsonObject(body)) throw transport.failure("reply is not a JSON object");
  return body;
}

function refusal(text: string, transport: ProviderTransport): ResearchSourceError {
  return transport.failure(`query refused: ${errorDetail(text) ?? "empty reply"}`);
}
