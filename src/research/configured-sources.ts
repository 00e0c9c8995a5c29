import type { Config } from "../config/index.js";
import { ConfigError } from "../config/index.js";
import { usdToNanos } from "../util/money.js";
import type { HttpProviderEntry } from "./providers/catalogue.js";
import { type ResearchSource, ResearchSourceError } from "./source.js";

/** The names requests use for research sources (interface 2.4). */
export type SourceName = "news_search" | "web_search";

/** A configured source: the provider behind a name, and its terms. */
export interface ConfiguredSource {
  name: SourceName;
  source: ResearchSource;
  costNanos: number;
  maxResults: number;
  timeoutMs: number;
}

export interface SourceFactories {
  /** HTTP providers by name. */
  http: Readonly<Record<string, HttpProviderEntry>>;
  /** Where `api_key_env` settings are read. */
  env: Record<string, string | undefined>;
}

/**
 * Builds the configured sources, checking what the schema cannot: that the provider exists, that
 * its API key is in the environment and that it knows its server. Runs at start, before the
 * database is opened, so a mistake stops `serve` with a clear message instead of failing
 * requests later; the local archive (`provider: archive`) is given once the database is open.
 */
export function configuredSources(
  research: Config["research"],
  factories: SourceFactories,
): (archive: ResearchSource) => ConfiguredSource[] {
  const entries = Object.entries(research.sources) as [SourceName, ResolvedSource][];
  const built = entries.map(([name, settings]) => ({
    name,
    source: settings.provider === "archive" ? null : httpSource(name, settings, factories),
    costNanos: usdToNanos(settings.cost_usd),
    maxResults: settings.max_results,
    timeoutMs: settings.timeout_ms,
  }));
  // Object.assign, not a spread: see prepareCompletion (completions/plan.ts).
  return (archive) =>
    built.map((source) => Object.assign({}, source, { source: source.source ?? archive }));
}

type ResolvedSource = Config["research"]["sources"]["news_search"];

function httpSource(
  name: SourceName,
  settings: ResolvedSource,
  factories: SourceFactories,
): ResearchSource {
  const at = `research.sources.${name}`;
  const provider = Object.hasOwn(factories.http, settings.provider)
    ? factories.http[settings.provider]
    : undefined;
  if (!provider) {
    const known = ["archive", ...Object.keys(factories.http)].join(", ");
    throw new ConfigError(
      `invalid configuration at ${at}.provider: unknown provider "${settings.provider}" (known: ${known})`,
    );
  }
  const baseUrl = settings.base_url ?? provider.defaultBaseUrl;
  if (!baseUrl) {
    throw new ConfigError(
      `invalid configuration at ${at}.base_url: required for provider ${settings.provider} (the address of your server)`,
    );
  }
  const apiKey = settings.api_key_env ? (factories.env[settings.api_key_env] ?? null) : null;
  if (provider.needsApiKey && !apiKey) {
    throw new ConfigError(
      settings.api_key_env
        ? `invalid configuration at ${at}.api_key_env: environment variable ${settings.api_key_env} is not set (provider ${settings.provider} needs an API key)`
        : `invalid configuration at ${at}.api_key_env: required for provider ${settings.provider} (name the environment variable holding its API key)`,
    );
  }
  try {
    return provider.create({ baseUrl, apiKey, timeoutMs: settings.timeout_ms });
  } catch (error) {
    if (!(error instanceof ResearchSourceError)) throw error;
    throw new ConfigError(`invalid configuration at ${at}: ${error.message}`);
  }
}
