import type { ModelConfig, ResearchSourceConfig } from "./schema.js";

export const BASELINE_MODEL_ID = "sibyl-baseline";
/** The baseline at a price, in the default list so a first run shows spending. */
export const DEMO_MODEL_ID = "sibyl-demo";

/** The configuration after defaults and environment overrides: every key present. */
export interface Config {
  server: {
    host: string;
    port: number;
    public_url: string;
    log_level: string;
    /** A request body that brings no byte for this long is cut with a 408. */
    body_stall_seconds: number;
    /** Open connections one client address may hold (0: no limit). */
    max_connections_per_address: number;
  };
  /** How long SIGTERM waits for in-flight requests, streams and batch lines before cutting them. */
  shutdown: { grace_seconds: number };
  data_dir: string;
  database: {
    url: string;
    /** PostgreSQL connections per process. */
    pool_size: number;
    /** A statement running longer is cancelled (PostgreSQL; 0: no limit). */
    statement_timeout_ms: number;
    connect_timeout_ms: number;
    /** Repeated statements prepared per connection (PostgreSQL). */
    prepared_statements: boolean;
  };
  files: {
    store: "disk" | "s3";
    dir: string;
    bucket: string;
    endpoint: string | null;
    region: string;
    access_key_id_env: string | null;
    secret_access_key_env: string | null;
    force_path_style: boolean;
  };
  limits: {
    requests_per_minute: number;
    /** Wrong keys and sign-in tokens one client address may send a minute (0: no limit). */
    failed_authentications_per_minute: number;
  };
  models: ModelConfig[];
  research: {
    /** How long a source's answer to a query is reused; 0 turns the cache off. */
    cache_seconds: number;
    /** Most prompt tokens the injected research may take. */
    context_tokens: number;
    /** news_search is always present (the local archive unless configured otherwise). */
    sources: { news_search: ResolvedResearchSource; web_search?: ResolvedResearchSource };
  };
  /** RSS/Atom feeds polled into the news archive where a batch worker runs. */
  news: { feeds: NewsFeedConfig[] };
  classification: { model: string; cost_usd: string };
  batches: {
    price_multiplier: number;
    concurrency: number;
    /** How long a worker's claim on a line lasts without renewal (a dead worker's lines return). */
    lease_seconds: number;
    /**
     * Runs per line before a transient failure (a 429 or 5xx from the model, Sibyl's database
     * away, its worker dead) becomes the line's result.
     */
    max_attempts: number;
  };
  /** Machine-payment top-ups; null when the server takes none. */
  payments: PaymentsConfig | null;
}

export interface ChainRail {
  /** The method name on the wire: `tempo` (registered) unless renamed for a private rail. */
  method: string;
  rpc_url: string;
  chain_id: number;
  /** The token's address. */
  currency: string;
  decimals: number;
  recipient: string;
  timeout_ms: number;
}

export interface CardRail {
  method: string;
  api_base: string;
  secret_key_env: string;
  network_id: string;
  payment_method_types: string[];
  api_version: string;
  timeout_ms: number;
}

/** At least one rail is set. */
export interface PaymentsConfig {
  /** Environment variable holding the HMAC key of challenge ids. */
  secret_env: string;
  challenge_ttl_seconds: number;
  /** Payment credentials presented a minute, per client address and per challenge. */
  limits: { per_address_per_minute: number; per_challenge_per_minute: number };
  chain: ChainRail | null;
  card: CardRail | null;
}

export type ResolvedResearchSource = Required<
  Pick<ResearchSourceConfig, "provider" | "cost_usd" | "max_results" | "timeout_ms">
> &
  Pick<ResearchSourceConfig, "base_url" | "api_key_env">;

export interface NewsFeedConfig {
  url: string;
  every_minutes: number;
}

export function defaultModels(): ModelConfig[] {
  return [
    {
      id: BASELINE_MODEL_ID,
      provider: "baseline",
      name: "Sibyl baseline",
      description:
        "Built-in deterministic reference forecaster: restates the question and answers with an uninformative prior. Any real model should beat it.",
      context_length: 32768,
      max_completion_tokens: 4096,
      pricing: { prompt: "0", completion: "0" },
    },
    {
      id: DEMO_MODEL_ID,
      provider: "baseline",
      name: "Sibyl demo (priced baseline)",
      description:
        "The built-in baseline at a price ($2 per million prompt tokens, $10 per million completion tokens), so the balance, ledger and usage show spending on a first run. Same answers as sibyl-baseline.",
      context_length: 32768,
      max_completion_tokens: 4096,
      pricing: { prompt: "0.000002", completion: "0.00001" },
    },
  ];
}
