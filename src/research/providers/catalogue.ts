import type { HttpSourceOptions, ResearchSource } from "../source.js";
import { AskNewsSource } from "./asknews.js";
import { BraveSource } from "./brave.js";
import { ExaSource } from "./exa.js";
import { GdeltSource } from "./gdelt.js";
import { SearxngSource } from "./searxng.js";
import { TavilySource } from "./tavily.js";

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
  gdelt: {
    create: (options) => new GdeltSource(options),
    honoursCutoff: true,
    needsApiKey: false,
    defaultBaseUrl: "https://api.gdeltproject.org",
  },
  exa: {
    create: (options) => new ExaSource(options),
    honoursCutoff: true,
    needsApiKey: true,
    defaultBaseUrl: "https://api.exa.ai",
  },
  asknews: {
    create: (options) => new AskNewsSource(options),
    honoursCutoff: true,
    needsApiKey: true,
    defaultBaseUrl: "https://api.asknews.app",
  },
  searxng: {
    create: (options) => new SearxngSource(options),
    honoursCutoff: false,
    needsApiKey: false,
    defaultBaseUrl: null,
  },
  tavily: {
    create: (options) => new TavilySource(options),
    honoursCutoff: false,
    needsApiKey: true,
    defaultBaseUrl: "https://api.tavily.com",
  },
  brave: {
    create: (options) => new BraveSource(options),
    honoursCutoff: false,
    needsApiKey: true,
    defaultBaseUrl: "https://api.search.brave.com",
  },
};

export function isHttpProviderName(name: string): name is HttpProviderName {
  return Object.hasOwn(HTTP_PROVIDERS, name);
}
