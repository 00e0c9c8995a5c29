import type {
  HttpSourceOptions,
  ResearchResult,
  ResearchSource,
  ResearchSourceError,
  SearchOptions,
} from "../source.js";
import { formatGdeltDate, parseGdeltDate } from "./dates.js";
import { errorDetail } from "./error-detail.js";
import {
  arrayField,
  httpUrlField,
  isJsonObject,
  MAX_TITLE_CHARS,
  resultCount,
  siteName,
  textField,
} from "./fields.js";
import { gdeltQuery } from "./gdelt-query.js";
import { type ProviderReply, ProviderTransport } from "./transport.js";

/** The DOC API returns at most 250 articles per request. */
const MAX_RECORDS = 250;

/**
 * How far before the cutoff to search. GDELT needs a start with an end; 90 days matches the API's
 * own default span (its "last 3 months"), reaches well past the weeks a forecast usually turns on,
 * and keeps the 250 records concentrated near the as-of date rather than spread over years.
 */
const WINDOW_MS = 90 * 86_400_000;

/** The full-text index starts on 1 January 2017; earlier start dates are refused. */
const INDEX_START = Date.UTC(2017, 0, 1);

/**
 * GDELT DOC 2.0 article search (`mode=artlist`). Articles carry a title and `seendate` (when GDELT
 * first saw them, which is also the only publication bound GDELT gives) but no snippet or text.
 */
export class GdeltSource implements ResearchSource {
  readonly provider = "gdelt";
  readonly honoursCutoff = true;
  private readonly transport: ProviderTransport;

  constructor(options: HttpSourceOptions) {
    this.transport = new ProviderTransport(this.provider, options);
  }

  async search(query: string, options: SearchOptions): Promise<ResearchResult[]> {
    const count = resultCount(options.limit, MAX_RECORDS);
    const keywords = gdeltQuery(query);
    if (count === 0 || keywords === null) return [];
    const params: Record<string, string> = {
      query: keywords,
      mode: "artlist",
      format: "json",
      maxrecords: String(count),
      sort: "hybridrel",
    };
    if (options.cutoff) {
      const end = options.cutoff.getTime();
      if (end < INDEX_START) return [];
      params.startdatetime = formatGdeltDate(new Date(Math.max(INDEX_START, end - WINDOW_MS)));
      params.enddatetime = formatGdeltDate(options.cutoff);
    }
    const reply = await this.transport.send(
      { method: "GET", path: "/api/v2/doc/doc", query: params },
      options.signal,
    );
    return this.readArticles(reply).slice(0, count);
  }

  private readArticles(reply: ProviderReply): ResearchResult[] {
    const body = this.readBody(reply);
    const articles = arrayField(body, "articles");
    if (articles === "invalid") throw this.transport.failure("reply has no articles list");
    const results: ResearchResult[] = [];
    for (const article of articles ?? []) {
      if (!isJsonObject(article)) continue;
      const url = httpUrlField(article, "url");
      if (url === null) continue;
      results.push({
        url,
        title: textField(article, "title", MAX_TITLE_CHARS),
        publishedAt: parseGdeltDate(article.seendate),
        firstSeenAt: null,
        snippet: null,
        text: null,
        trust: "untrusted",
        source: textField(article, "domain", MAX_TITLE_CHARS) ?? siteName(url),
      });
    }
    return results;
  }

  /**
   * GDELT answers bad queries and rate limiting with HTTP 200 and a line of plain text (or HTML)
   * instead of JSON; that text is the error. With no match it sends `{}`. Its JSON may carry raw
   * control characters from scraped titles, which are not valid JSON and are replaced by spaces.
   */
  private readBody(reply: ProviderReply): Record<string, unknown> {
    if (reply.status < 200 || reply.status > 299) throw this.transport.statusFailure(reply);
    const text = reply.text.trim();
    let body: unknown;
    try {
      body = JSON.parse(text.replace(/\p{Cc}/gu, " "));
    } catch (error) {
      if (!text.startsWith("{") && !text.startsWith("[")) throw this.refusal(text);
      throw this.transport.failure(`unreadable JSON reply (${text.length} characters)`, error);
    }
    if (!isJsonObject(body)) throw this.transport.failure("reply is not a JSON object");
    return body;
  }

  private refusal(text: string): ResearchSourceError {
    return this.transport.failure(`query refused: ${errorDetail(text) ?? "empty reply"}`);
  }
}
