import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { Value } from "@sinclair/typebox/value";
import { parse as parseYaml } from "yaml";
import { BASELINE_MODEL_ID, type Config, defaultModels, type PaymentsConfig } from "./resolved.js";
import { type ConfigFile, ConfigFileSchema, type ResearchSourceConfig } from "./schema.js";

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

export interface LoadConfigOptions {
  /** Explicit --config path; otherwise SIBYL_CONFIG, then ./sibyl.yaml when present. */
  file?: string | undefined;
  env: Record<string, string | undefined>;
  cwd?: string;
  /** Command-line flags, which win over the file and the environment. */
  overrides?: { port?: number | undefined; host?: string | undefined };
}

export function loadConfig(options: LoadConfigOptions): Config {
  const cwd = options.cwd ?? process.cwd();
  const file = locateConfigFile(options, cwd);
  const raw = file ? readConfigFile(file) : {};
  const withEnv = applyEnvironment(raw, options.env, cwd);
  validate(withEnv);
  // Paths in a file mean the same wherever the command runs: they are read from its folder.
  return resolve(withEnv, options, file ? path.dirname(file) : cwd, cwd);
}

function locateConfigFile(options: LoadConfigOptions, cwd: string): string | null {
  const explicit = options.file ?? options.env.SIBYL_CONFIG;
  if (explicit) {
    const full = path.resolve(cwd, explicit);
    if (!existsSync(full)) throw new ConfigError(`config file not found: ${full}`);
    return full;
  }
  const fallback = path.resolve(cwd, "sibyl.yaml");
  return existsSync(fallback) ? fallback : null;
}

function readConfigFile(file: string): unknown {
  let parsed: unknown;
  try {
    parsed = parseYaml(readFileSync(file, "utf8"));
  } catch (error) {
    throw new ConfigError(`config file ${file} is not valid YAML: ${(error as Error).message}`);
  }
  if (parsed === null || parsed === undefined) return {};
  if (typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new ConfigError(`config file ${file} must hold a mapping of sections`);
  }
  return parsed;
}

type Mutable = Record<string, unknown>;

function section(root: Mutable, key: string): Mutable {
  const existing = root[key];
  if (existing && typeof existing === "object" && !Array.isArray(existing)) {
    return existing as Mutable;
  }
  const created: Mutable = {};
  root[key] = created;
  return created;
}

function applyEnvironment(raw: unknown, env: LoadConfigOptions["env"], cwd: string): unknown {
  const root = structuredClone(raw) as Mutable;
  if (env.SIBYL_PORT !== undefined) {
    // Only plain digits: Number() would read "" as 0 and accept "0x1F90" or "1e3".
    const text = env.SIBYL_PORT.trim();
    section(root, "server").port = /^\d+$/.test(text) ? Number(text) : env.SIBYL_PORT;
  }
  if (env.SIBYL_HOST !== undefined) section(root, "server").host = env.SIBYL_HOST;
  // A path in the environment is the shell's: relative to where the command runs.
  if (env.SIBYL_DATABASE_URL !== undefined) {
    section(root, "database").url = absoluteSqliteUrl(env.SIBYL_DATABASE_URL, cwd);
  }
  return root;
}

function validate(value: unknown): asserts value is ConfigFile {
  const first = Value.Errors(ConfigFileSchema, value).First();
  if (!first) return;
  const key = first.path.replace(/^\//, "").replaceAll("/", ".") || "(root)";
  throw new ConfigError(`invalid configuration at ${key}: ${first.message}`);
}

function resolve(file: ConfigFile, options: LoadConfigOptions, base: string, cwd: string): Config {
  // An empty variable is an unset one, as in most shells' habits.
  const dataDirVariable = options.env.SIBYL_DATA_DIR?.trim() || undefined;
  const dataDir =
    dataDirVariable === undefined ? path.resolve(base, "data") : path.resolve(cwd, dataDirVariable);
  const host = options.overrides?.host ?? file.server?.host ?? "127.0.0.1";
  const port = options.overrides?.port ?? file.server?.port ?? 8080;
  const models = file.models ?? defaultModels();
  checkModels(models);
  const classificationModel = checkedClassificationModel(file, models);
  const files = resolveFiles(file, base, dataDir);
  return {
    server: {
      host,
      port,
      public_url: file.server?.public_url ?? `http://${host}:${port}`,
      log_level: file.server?.log_level ?? "info",
      body_stall_seconds: file.server?.body_stall_seconds ?? 30,
      max_connections_per_address: file.server?.max_connections_per_address ?? 256,
    },
    shutdown: { grace_seconds: file.shutdown?.grace_seconds ?? 25 },
    data_dir: dataDir,
    database: {
      url: resolveDatabaseUrl(file.database?.url, dataDir, base),
      pool_size: file.database?.pool_size ?? 10,
      statement_timeout_ms: file.database?.statement_timeout_ms ?? 30_000,
      connect_timeout_ms: file.database?.connect_timeout_ms ?? 5_000,
      prepared_statements: file.database?.prepared_statements ?? true,
    },
    files,
    limits: {
      requests_per_minute: file.limits?.requests_per_minute ?? 120,
      failed_authentications_per_minute: file.limits?.failed_authentications_per_minute ?? 50,
    },
    models,
    research: resolveResearch(file.research),
    news: { feeds: resolveFeeds(file.news?.feeds ?? []) },
    classification: {
      model: classificationModel,
      cost_usd: file.classification?.cost_usd ?? "0.0005",
    },
    batches: {
      price_multiplier: file.batches?.price_multiplier ?? 0.5,
      concurrency: file.batches?.concurrency ?? 16,
      lease_seconds: file.batches?.lease_seconds ?? 15,
      max_attempts: file.batches?.max_attempts ?? 5,
    },
    payments: resolvePayments(file.payments, file.server?.public_url ?? `http://${host}:${port}`),
  };
}

/** The model that classifies `auto` answer types: the baseline, or one of the models. */
function checkedClassificationModel(file: ConfigFile, models: Config["models"]): string {
  const classificationModel = file.classification?.model ?? BASELINE_MODEL_ID;
  if (
    classificationModel !== BASELINE_MODEL_ID &&
    !models.some((m) => m.id === classificationModel)
  ) {
    throw new ConfigError(
      `invalid configuration at classification.model: unknown model "${classificationModel}"`,
    );
  }
  return classificationModel;
}

function resolveFiles(file: ConfigFile, base: string, dataDir: string): Config["files"] {
  const store = file.files?.store ?? "disk";
  if (store === "s3" && !file.files?.bucket) {
    throw new ConfigError("invalid configuration at files.bucket: required when files.store is s3");
  }
  return {
    store,
    dir: file.files?.dir ? path.resolve(base, file.files.dir) : path.join(dataDir, "files"),
    bucket: file.files?.bucket ?? "",
    endpoint: file.files?.endpoint ?? null,
    region: file.files?.region ?? "us-east-1",
    access_key_id_env: file.files?.access_key_id_env ?? null,
    secret_access_key_env: file.files?.secret_access_key_env ?? null,
    force_path_style: file.files?.force_path_style ?? true,
  };
}

/** HTTPS, or plain HTTP on a loopback address only. */
function isSafeForCredentials(publicUrl: string): boolean {
  try {
    const url = new URL(publicUrl);
    if (url.protocol === "https:") return true;
    return (
      ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname) || url.hostname.startsWith("127.")
    );
  } catch {
    return false;
  }
}

/** Tempo mainnet and its USDC: the on-chain rail's defaults. */
const TEMPO_CHAIN_ID = 4217;
const TEMPO_USDC = "0x20C000000000000000000000b9537d11c60E8b50";

function resolvePayments(
  payments: ConfigFile["payments"],
  publicUrl: string,
): PaymentsConfig | null {
  if (!payments) return null;
  if (!payments.allow_plain_http && !isSafeForCredentials(publicUrl)) {
    throw new ConfigError(
      `invalid configuration at payments: server.public_url ${publicUrl} is plain HTTP on a non-loopback host, where payment credentials travel in clear; serve it behind TLS (https://) or set payments.allow_plain_http: true`,
    );
  }
  const { chain, card } = payments;
  if (!chain && !card) {
    throw new ConfigError("invalid configuration at payments: configure a chain or a card rail");
  }
  if (chain && card && (chain.method ?? "tempo") === (card.method ?? "stripe")) {
    throw new ConfigError(
      "invalid configuration at payments.card.method: same name as the chain rail",
    );
  }
  return {
    secret_env: payments.secret_env ?? "SIBYL_PAYMENT_SECRET",
    challenge_ttl_seconds: payments.challenge_ttl_seconds ?? 300,
    limits: {
      per_address_per_minute: payments.limits?.per_address_per_minute ?? 60,
      per_challenge_per_minute: payments.limits?.per_challenge_per_minute ?? 20,
    },
    chain: chain
      ? {
          method: chain.method ?? "tempo",
          rpc_url: chain.rpc_url,
          chain_id: chain.chain_id ?? TEMPO_CHAIN_ID,
          currency: chain.currency ?? TEMPO_USDC,
          decimals: chain.decimals ?? 6,
          recipient: chain.recipient,
          timeout_ms: chain.timeout_ms ?? 10_000,
        }
      : null,
    card: card
      ? {
          method: card.method ?? "stripe",
          api_base: (card.api_base ?? "https://api.stripe.com").replace(/\/+$/, ""),
          secret_key_env: card.secret_key_env,
          network_id: card.network_id,
          payment_method_types: card.payment_method_types ?? ["card", "link"],
          api_version: card.api_version ?? "2026-07-29.preview",
          timeout_ms: card.timeout_ms ?? 20_000,
        }
      : null,
  };
}

function resolveResearch(research: ConfigFile["research"]): Config["research"] {
  const source = (configured: ResearchSourceConfig) => ({
    ...configured,
    cost_usd: configured.cost_usd ?? "0",
    max_results: configured.max_results ?? 8,
    timeout_ms: configured.timeout_ms ?? 10_000,
  });
  const { news_search, web_search } = research?.sources ?? {};
  return {
    cache_seconds: research?.cache_seconds ?? 900,
    context_tokens: research?.context_tokens ?? 2_000,
    // Research works out of the box: the local archive, free, unless configured otherwise.
    sources: {
      news_search: source(news_search ?? { provider: "archive" }),
      ...(web_search ? { web_search: source(web_search) } : {}),
    },
  };
}

function resolveFeeds(feeds: NonNullable<NonNullable<ConfigFile["news"]>["feeds"]>) {
  return feeds.map((feed, index) => {
    const url = webUrl(feed.url);
    if (!url) {
      throw new ConfigError(
        `invalid configuration at news.feeds.${index}.url: not an http(s) URL: ${feed.url}`,
      );
    }
    return { url: url.href, every_minutes: feed.every_minutes ?? 15 };
  });
}

function webUrl(text: string): URL | null {
  try {
    const url = new URL(text);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname ? url : null;
  } catch {
    return null;
  }
}

function resolveDatabaseUrl(url: string | undefined, dataDir: string, base: string): string {
  if (!url) return `sqlite:${path.join(dataDir, "sibyl.db")}`;
  return absoluteSqliteUrl(url, base);
}

/** A `sqlite:` URL with its path made absolute against `base`; any other URL as it is. */
function absoluteSqliteUrl(url: string, base: string): string {
  if (!url.startsWith("sqlite:")) return url;
  const target = url.slice("sqlite:".length);
  if (target === ":memory:") return url;
  return `sqlite:${path.resolve(base, target)}`;
}

function checkModels(models: Config["models"]): void {
  const seen = new Set<string>();
  models.forEach((model, index) => {
    if (seen.has(model.id)) {
      throw new ConfigError(
        `invalid configuration at models.${index}.id: duplicate id "${model.id}"`,
      );
    }
    seen.add(model.id);
    if (model.provider === "openai" && !model.base_url) {
      throw new ConfigError(
        `invalid configuration at models.${index}.base_url: required for provider openai`,
      );
    }
  });
}
