import type { HttpSourceOptions, ResearchSource } from "../source.js";
import { ASKNEWS_WIRE, AskNewsSource } from "./asknews.js";
import { BRAVE_WIRE, BraveSource } from "./brave.js";
import { EXA_WIRE, ExaSource } from "./exa.js";
import { GDELT_WIRE, GdeltSource } from "./gdelt.js";
import type { SearchWire } from "./search-source.js";
import { SEARXNG_WIRE, SearxngSource } from "./searxng.js";
import { TAVILY_WIRE, TavilySource } from "./tavily.js";

/** What configuration needs to know about a provider before building it. */
export interface HttpProviderEntry {
  /** Throws a `ResearchSourceError` on a bad base URL, or a missing key where one is needed. */
  create(options: HttpSourceOptions): ResearchSource;
  honoursCutoff: boolean;
  needsApiKey: boolean;
  /** Used when the configuration gives no `base_url`; null for self-hosted services. */
  defaultBaseUrl: string | null;
}

export type HttpProviderName = "gdelt" | "exa" | "asknews" | "searxng" | "tavily" | "brave";

/** The HTTP search providers, by the name `research.sources.*.provider` gives them. */
export const HTTP_PROVIDERS: Readonly<Record<HttpProviderName, HttpProviderEntry>> = {
  gdelt: entry(GDELT_WIRE, GdeltSource),
  exa: entry(EXA_WIRE, ExaSource),
  asknews: entry(ASKNEWS_WIRE, AskNewsSource),
  searxng: entry(SEARXNG_WIRE, SearxngSource),
  tavily: entry(TAVILY_WIRE, TavilySource),
  brave: entry(BRAVE_WIRE, BraveSource),
};

export function isHttpProviderName(name: string): name is HttpProviderName {
  return Object.hasOwn(HTTP_PROVIDERS, name);
}

function entry(
  wire: SearchWire,
  Source: new (options: HttpSourceOptions) => ResearchSource,
): HttpProviderEntry {
  return {
    create: (options) => new Source(options),
    honoursCutoff: wire.honoursCutoff,
    needsApiKey: wire.keyHeaders !== undefined,
    defaultBaseUrl: wire.defaultBaseUrl,
  };
}
