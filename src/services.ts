import { Accounts } from "./auth/accounts.js";
import { ApiKeys } from "./auth/api-keys.js";
import { Organizations } from "./auth/organizations.js";
import { Batches } from "./batches/batches-service.js";
import { HoldKeeper } from "./billing/hold-keeper.js";
import { Ledger } from "./billing/ledger.js";
import { describeBaselineForecast, QuestionClassifier } from "./completions/forecast-step.js";
import { CompletionPipeline } from "./completions/pipeline.js";
import type { CompletionService } from "./completions/types.js";
import type { Config } from "./config/index.js";
import { connectDatabase, type DatabaseHandle } from "./db/connect.js";
import { migrateToLatest } from "./db/migrate.js";
import { createBlobStore } from "./files/create-blob-store.js";
import { Files } from "./files/files-service.js";
import { ProviderRegistry } from "./inference/registry.js";
import { DatabaseWindowCounter } from "./limits/database-window-counter.js";
import { MemoryWindowCounter } from "./limits/memory-window-counter.js";
import { RATE_LIMIT_WINDOW_SECONDS, RateLimiter } from "./limits/rate-limiter.js";
import type { WindowCounter } from "./limits/window-counter.js";
import { ModelCatalogue } from "./models/catalogue.js";
import { ServiceMetrics } from "./observability/metrics.js";
import { type Clock, systemClock } from "./util/clock.js";
import { newId } from "./util/ids.js";

/** Everything the routes and workers use, built once from the configuration. */
export interface Services {
  config: Config;
  clock: Clock;
  database: DatabaseHandle;
  metrics: ServiceMetrics;
  organizations: Organizations;
  apiKeys: ApiKeys;
  /** Opens organizations with their first key and credits, atomically. */
  accounts: Accounts;
  ledger: Ledger;
  /** Heartbeat and release of dead processes' holds; `serve` and `worker` start it. */
  holds: HoldKeeper;
  catalogue: ModelCatalogue;
  providers: ProviderRegistry;
  rateLimiter: RateLimiter;
  completions: CompletionService;
  files: Files;
  batches: Batches;
  close(): Promise<void>;
}

export interface ServiceOptions {
  clock?: Clock;
  /** Where `*_env` settings (upstream API keys) are read; default the process environment. */
  env?: Record<string, string | undefined>;
  /** Run migrations before use (default true; `sibyl migrate` runs them on its own). */
  migrate?: boolean;
}

export async function createServices(
  config: Config,
  options: ServiceOptions = {},
): Promise<Services> {
  const clock = options.clock ?? systemClock;
  const database = connectDatabase(config.database.url);
  try {
    if (options.migrate ?? true) await migrateToLatest(database);
  } catch (error) {
    await database.close();
    throw error;
  }
  const metrics = new ServiceMetrics();
  const ledger = new Ledger(database.db, clock, newId("prc_", 16));
  const holds = new HoldKeeper(database.db, ledger, clock, config.batches.lease_seconds);
  const catalogue = new ModelCatalogue(config.models);
  const providers = new ProviderRegistry(config.models, {
    env: options.env ?? process.env,
    describeForecast: describeBaselineForecast,
  });
  const completions = new CompletionPipeline({
    config,
    clock,
    database: database.db,
    catalogue,
    providers,
    ledger,
    holds,
    metrics,
    classifier: new QuestionClassifier(config, providers),
  });
  const files = new Files(
    database.db,
    createBlobStore(config.files, options.env ?? process.env),
    clock,
  );
  const organizations = new Organizations(database.db, clock);
  const apiKeys = new ApiKeys(database.db, clock);
  return {
    config,
    clock,
    database,
    metrics,
    organizations,
    apiKeys,
    accounts: new Accounts(database.db, organizations, apiKeys, ledger),
    ledger,
    holds,
    catalogue,
    providers,
    rateLimiter: new RateLimiter(
      rateLimitCounter(database),
      clock,
      config.limits.requests_per_minute,
    ),
    completions,
    files,
    batches: new Batches(database.db, clock),
    close: async () => {
      await holds.stop();
      await files.close();
      await providers.close();
      await database.close();
    },
  };
}

/**
 * PostgreSQL deployments may run many API processes, which must share one count; on SQLite a
 * single process serves the API and counts in memory.
 */
function rateLimitCounter(database: DatabaseHandle): WindowCounter {
  return database.dialect === "postgres"
    ? new DatabaseWindowCounter(database.db, RATE_LIMIT_WINDOW_SECONDS)
    : new MemoryWindowCounter();
}
