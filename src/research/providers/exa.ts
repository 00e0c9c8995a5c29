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
  joinedTextField,
  MAX_SNIPPET_CHARS,
  MAX_TEXT_CHARS,
  MAX_TITLE_CHARS,
  resultCount,
  siteName,
  textField,
} from "./fields.js";
import { ProviderTransport, requiredApiKey } from "./transport.js";

/** Exa serves at most 100 results per search. */
const MAX_RESULTS = 100;

/**
 * Exa search (`POST /search`) over its news category, with page text and query highlights.
 * A cutoff becomes `endPublishedDate` (which also drops undated pages) and `endCrawlDate`, so a
 * page Exa first crawled after the cutoff is excluded even when its stated date is earlier. Those
 * bound when a page was published or found, not when the text returned was fetched: with a
 * cutoff, text comes from Exa's cache only (`maxAgeHours: -1`, and the older `livecrawl: "never"`),
 * never from a crawl made now. A cached copy may still postdate the cutoff, which is why Exa's
 * text is untrusted and read by the strict guard.
 */
export class ExaSource implements ResearchSource {
  readonly provider = "exa";
  readonly honoursCutoff = true;
  private readonly transport: ProviderTransport;
  private readonly apiKey: string;

  constructor(options: HttpSourceOptions) {
    this.apiKey = requiredApiKey(this.provider, options);
    this.transport = new ProviderTransport(this.provider, options);
  }

  async search(query: string, options: SearchOptions): Promise<ResearchResult[]> {
    const count = resultCount(options.limit, MAX_RESULTS);
    if (count === 0 || query.trim() === "") return [];
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
    if (options.cutoff) {
      contents.maxAgeHours = -1;
      contents.livecrawl = "never";
      body.endPublishedDate = options.cutoff.toISOString();
      body.endCrawlDate = options.cutoff.toISOString();
    }
    const reply = await this.transport.send(
      { method: "POST", path: "/search", headers: { "x-api-key": this.apiKey }, json: body },
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
      publishedAt: parseDate(item.publishedDate),
      firstSeenAt: null,
      snippet:
        joinedTextField(item, "highlights", MAX_SNIPPET_CHARS) ??
        textField(item, "summary", MAX_SNIPPET_CHARS),
      text: textField(item, "text", MAX_TEXT_CHARS),
      trust: "untrusted",
      source: siteName(url),
    },
  ];
}
