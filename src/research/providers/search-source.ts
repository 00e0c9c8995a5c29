import type {
  HttpSourceOptions,
  ResearchResult,
  ResearchSource,
  SearchOptions,
} from "../source.js";
import { httpUrlField, isJsonObject, type JsonObject, resultCount, siteName } from "./fields.js";
import {
  type ProviderReply,
  type ProviderRequest,
  ProviderTransport,
  requiredApiKey,
} from "./transport.js";

/** What a provider reads from one result item besides its URL. */
export type ItemFields = Pick<
  ResearchResult,
  "title" | "publishedAt" | "snippet" | "text" | "source"
>;

/**
 * What one search API's wire format adds to the shell every HTTP provider shares: how a search
 * is asked for, where the results stand in the reply, and how one result's fields are named.
 */
export interface SearchWire {
  readonly provider: string;
  readonly honoursCutoff: boolean;
  /** Used when the configuration gives no `base_url`; null for self-hosted services. */
  readonly defaultBaseUrl: string | null;
  /** The most results one request may ask for. */
  readonly maxResults: number;
  /** The headers carrying the API key, for a provider that cannot work without one. */
  readonly keyHeaders?: (apiKey: string) => Record<string, string>;
  /** The request for `count` results; null when there is nothing to ask (no usable query). */
  request(query: string, count: number, cutoff: Date | null): ProviderRequest | null;
  /** The result items of a reply; a 2xx JSON reply's `results` list when not given. */
  readonly items?: (reply: ProviderReply, transport: ProviderTransport) => unknown[];
  /** The field holding an item's URL; items without an http(s) URL there are dropped. */
  readonly urlField: string;
  /** The fields of an item; a null `source` falls back to the URL's site name. */
  read(item: JsonObject): ItemFields;
}

/**
 * The shell of a search provider over HTTP: the API key checked at construction, the result
 * count bounded, the request sent through a `ProviderTransport` (time limit, size limit, errors),
 * and every item with a usable URL mapped to an untrusted result.
 */
export class HttpSearchSource implements ResearchSource {
  readonly provider: string;
  readonly honoursCutoff: boolean;
  private readonly keyHeaders: Record<string, string> | undefined;
  private readonly transport: ProviderTransport;

  constructor(
    private readonly wire: SearchWire,
    options: HttpSourceOptions,
  ) {
    this.provider = wire.provider;
    this.honoursCutoff = wire.honoursCutoff;
    this.keyHeaders = wire.keyHeaders?.(requiredApiKey(wire.provider, options));
    this.transport = new ProviderTransport(wire.provider, options);
  }

  async search(query: string, options: SearchOptions): Promise<ResearchResult[]> {
    const count = resultCount(options.limit, this.wire.maxResults);
    if (count === 0) return [];
    const spec = this.wire.request(query, count, options.cutoff);
    if (spec === null) return [];
    const reply = await this.transport.send(
      { ...spec, headers: { ...spec.headers, ...this.keyHeaders } },
      options.signal,
    );
    const items = (this.wire.items ?? resultsItems)(reply, this.transport);
    return items.flatMap((item) => this.readItem(item)).slice(0, count);
  }

  private readItem(item: unknown): ResearchResult[] {
    if (!isJsonObject(item)) return [];
    const url = httpUrlField(item, this.wire.urlField);
    if (url === null) return [];
    const fields = this.wire.read(item);
    return [
      {
        url,
        title: fields.title,
        publishedAt: fields.publishedAt,
        firstSeenAt: null,
        snippet: fields.snippet,
        text: fields.text,
        trust: "untrusted",
        source: fields.source ?? siteName(url),
      },
    ];
  }
}

function resultsItems(reply: ProviderReply, transport: ProviderTransport): unknown[] {
  return transport.resultsList(reply, "results");
}
