import type {
  HttpSourceOptions,
  ResearchResult,
  ResearchSource,
  SearchOptions,
} from "../source.js";
import { parseDate, parseLongDate } from "./dates.js";
import {
  arrayField,
  boundedQuery,
  httpUrlField,
  isJsonObject,
  joinedTextField,
  MAX_SNIPPET_CHARS,
  MAX_TEXT_CHARS,
  MAX_TITLE_CHARS,
  objectField,
  resultCount,
  siteName,
  textField,
} from "./fields.js";
import { ProviderTransport, requiredApiKey } from "./transport.js";

/** Brave's `count` accepts at most 20. */
const MAX_RESULTS = 20;
/** Brave refuses queries over 400 characters or 50 words. */
const MAX_QUERY_CHARS = 400;
const MAX_QUERY_WORDS = 50;

/**
 * Brave Search web results (`GET /res/v1/web/search`, `X-Subscription-Token`). Its `freshness`
 * filter counts back from now, so a cutoff is ignored and the leak guard alone decides what an
 * answer may use. Descriptions carry `<strong>` highlights, which are stripped.
 */
export class BraveSource implements ResearchSource {
  readonly provider = "brave";
  readonly honoursCutoff = false;
  private readonly transport: ProviderTransport;
  private readonly apiKey: string;

  constructor(options: HttpSourceOptions) {
    this.apiKey = requiredApiKey(this.provider, options);
    this.transport = new ProviderTransport(this.provider, options);
  }

  async search(query: string, options: SearchOptions): Promise<ResearchResult[]> {
    const count = resultCount(options.limit, MAX_RESULTS);
    const text = boundedQuery(query, MAX_QUERY_CHARS, MAX_QUERY_WORDS);
    if (count === 0 || text === "") return [];
    const reply = await this.transport.send(
      {
        method: "GET",
        path: "/res/v1/web/search",
        query: { q: text, count: String(count) },
        headers: { "x-subscription-token": this.apiKey },
      },
      options.signal,
    );
    const parsed = this.transport.json(reply);
    if (!isJsonObject(parsed)) throw this.transport.failure("reply is not a JSON object");
    // Brave leaves `web` out when nothing matched.
    if (parsed.web === undefined) return [];
    const web = objectField(parsed, "web");
    const items = web ? arrayField(web, "results") : "invalid";
    if (items === null || items === "invalid") {
      throw this.transport.failure("reply has no web results list");
    }
    return items.flatMap((item) => readResult(item)).slice(0, count);
  }
}

function readResult(item: unknown): ResearchResult[] {
  if (!isJsonObject(item)) return [];
  const url = httpUrlField(item, "url");
  if (url === null) return [];
  const profile = objectField(item, "profile");
  return [
    {
      url,
      title: textField(item, "title", MAX_TITLE_CHARS),
      // `page_age` is a timestamp; `age` is either a calendar date or relative ("2 days ago").
      publishedAt: parseDate(item.page_age) ?? parseLongDate(item.age) ?? parseDate(item.age),
      firstSeenAt: null,
      snippet: textField(item, "description", MAX_SNIPPET_CHARS),
      text: joinedTextField(item, "extra_snippets", MAX_TEXT_CHARS),
      trust: "untrusted",
      source: (profile && textField(profile, "name", MAX_TITLE_CHARS)) ?? siteName(url),
    },
  ];
}
