import { Accounts } from "./auth/accounts.js";
import { ApiKeys } from "./auth/api-keys.js";
import { OrganizationKeys } from "./auth/organization-keys.js";
import { Organizations } from "./auth/organizations.js";
import { SignInLinks } from "./auth/sign-in-links.js";
import { Batches } from "./batches/batches-service.js";
import { CostReports } from "./billing/cost-report.js";
import { HoldKeeper } from "./billing/hold-keeper.js";
import { Ledger } from "./billing/ledger.js";
import { LedgerHistory } from "./billing/ledger-history.js";
import { UsageReports } from "./billing/usage-report.js";
import type { Cluster } from "./cluster/cluster.js";
import { openCluster } from "./cluster/open-cluster.js";
import { stderrClusterLog } from "./cluster/stderr-log.js";
import { describeBaselineForecast, QuestionClassifier } from "./completions/forecast-step.js";
import { CompletionPipeline } from "./completions/pipeline.js";
import type { ChatCompletionBody } from "./completions/schema.js";
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
import { createPaymentSetup } from "./payments/create-rails.js";
import { CREDENTIAL_WINDOW_SECONDS, CredentialThrottle } from "./payments/credential-throttle.js";
import { Reconciliation } from "./payments/reconciliation.js";
import { Topups } from "./payments/topups.js";
import { ArchiveSource } from "./research/archive/archive-source.js";
import { configuredSources } from "./research/configured-sources.js";
import { HTTP_PROVIDERS, type HttpProviderEntry } from "./research/providers/catalogue.js";
import { Research, type ResearchLog } from "./research/research.js";
import { stderrResearchLog } from "./research/research-log.js";
import { Calibrations } from "./track/calibration/calibrations-service.js";
import { ForecastRecorder } from "./track/forecast-recorder.js";
import { Questions } from "./track/questions-service.js";
import { Scores } from "./track/scores-service.js";
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
  /** Keys as an organization's admins manage them (the organization API, the CLI). */
  organizationKeys: OrganizationKeys;
  ledger: Ledger;
  ledgerHistory: LedgerHistory;
  usage: UsageReports;
  /** What the organization was charged per day, in the shape of OpenAI's Costs API. */
  costs: CostReports;
  /** One-use links that sign a browser in to the dashboard. */
  signInLinks: SignInLinks;
  /** Heartbeat and release of dead processes' holds; `serve` and `worker` start it. */
  holds: HoldKeeper;
  /** The processes sharing the database: batch work announcements and sweep duties. */
  cluster: Cluster;
  catalogue: ModelCatalogue;
  providers: ProviderRegistry;
  rateLimiter: RateLimiter;
  completions: CompletionService;
  files: Files;
  batches: Batches;
  /** The track record: questions, their forecasts and resolutions. */
  questions: Questions;
  /** Calibration maps fitted on the track record's resolved forecasts. */
  calibrations: Calibrations;
  scores: Scores;
  /** Machine-payment top-ups; null when no payments are configured. */
  topups: Topups | null;
  /** Credits payments that landed without being redeemed; null when no payments are configured. */
  reconciliation: Reconciliation | null;
  /**
   * Gives back what the process holds in the database, then closes every connection, store and
   * pool. Each step runs even when one before it failed (the database away, say): the process
   * can still exit. Rejects with the first failure, and an AggregateError of all when several.
   */
  close(): Promise<void>;
}

export interface ServiceOptions {
  clock?: Clock;
  /** Where `*_env` settings (upstream API keys) are read; default the process environment. */
  env?: Record<string, string | undefined>;
  /** Run migrations before use (default true; `sibyl migrate` runs them on its own). */
  migrate?: boolean;
  /** Search providers beside the built-in ones, by the name the configuration gives them. */
  researchProviders?: Record<string, HttpProviderEntry>;
  /** Where research logs skipped sources and leak-guard drops; default stderr. */
  researchLog?: ResearchLog;
}

export async function createServices(
  config: Config,
  options: ServiceOptions = {},
): Promise<Services> {
  const clock = options.clock ?? systemClock;
  // Payment secrets are checked before anything is opened: a missing one stops the start.
  const payments = config.payments
    ? {
        config: config.payments,
        ...(await createPaymentSetup(config.payments, options.env ?? process.env)),
      }
    : null;
  const researchSources = configuredSources(config.research, {
    http: { ...HTTP_PROVIDERS, ...options.researchProviders },
    env: options.env ?? process.env,
  });
  const database = connectDatabase(config.database.url, {
    poolSize: config.database.pool_size,
    statementTimeoutMs: config.database.statement_timeout_ms,
    connectTimeoutMs: config.database.connect_timeout_ms,
    preparedStatements: config.database.prepared_statements,
    onConnectionError: (error) =>
      stderrClusterLog.error({ err: error }, "database connection failed; dropped"),
  });
  try {
    if (options.migrate ?? true) await migrateToLatest(database);
  } catch (error) {
    await database.close();
    throw error;
  }
  const cluster = await openCluster(config.database, database, stderrClusterLog);
  const metrics = new ServiceMetrics();
  const ledger = new Ledger(database.db, clock, newId("prc_", 16));
  const holds = new HoldKeeper(database.db, ledger, clock, config.batches.lease_seconds);
  const catalogue = new ModelCatalogue(config.models);
  const files = new Files(
    database.db,
    await createBlobStore(config.files, options.env ?? process.env),
    clock,
  );
  const calibrations = new Calibrations(
    database.db,
    clock,
    (id) => catalogue.has(id),
    (organizationId, id) => files.evaluationSummary(organizationId, id),
  );
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
    forecasts: new ForecastRecorder(database.db, stderrClusterLog),
    calibrations,
    research: new Research(
      researchSources(new ArchiveSource(database.db)),
      {
        cacheSeconds: config.research.cache_seconds,
        contextTokens: config.research.context_tokens,
      },
      {
        clock,
        metrics,
        log: options.researchLog ?? stderrResearchLog(config.server.log_level),
      },
    ),
  });
  const organizations = new Organizations(database.db, clock);
  const apiKeys = new ApiKeys(database.db, clock, cluster);
  const accounts = new Accounts(database.db, organizations, apiKeys, ledger);
  const batches = new Batches(database.db, clock, {
    db: database.db,
    files,
    knownModel: (id) => catalogue.has(id),
    lineHoldNanos: (organizationId, body) =>
      completions.chatHoldNanos(
        { organizationId, priceMultiplier: config.batches.price_multiplier },
        body as ChatCompletionBody,
      ),
    balanceNanos: (organizationId) => ledger.balance(organizationId),
  });
  batches.listen(() => cluster.announceBatchWork());
  return {
    config,
    clock,
    database,
    metrics,
    organizations,
    apiKeys,
    accounts,
    organizationKeys: new OrganizationKeys(database.db, clock, apiKeys),
    ledger,
    ledgerHistory: new LedgerHistory(database.db),
    usage: new UsageReports(database.db),
    costs: new CostReports(database.db),
    signInLinks: new SignInLinks(database.db, clock, organizations, apiKeys),
    holds,
    cluster,
    catalogue,
    providers,
    rateLimiter: new RateLimiter(
      windowCounter(database, RATE_LIMIT_WINDOW_SECONDS),
      clock,
      config.limits.requests_per_minute,
    ),
    completions,
    files,
    batches,
    questions: new Questions(database.db, clock),
    calibrations,
    scores: new Scores(database.db),
    topups: payments
      ? new Topups({
          db: database.db,
          clock,
          ledger,
          accounts,
          apiKeys,
          signer: payments.signer,
          rails: payments.rails,
          realm: new URL(config.server.public_url).host,
          challengeTtlSeconds: payments.config.challenge_ttl_seconds,
          throttle: new CredentialThrottle(
            windowCounter(database, CREDENTIAL_WINDOW_SECONDS),
            clock,
            payments.config.limits,
          ),
        })
      : null,
    reconciliation: payments
      ? new Reconciliation({
          db: database.db,
          clock,
          ledger,
          accounts,
          rails: payments.rails,
          realm: new URL(config.server.public_url).host,
        })
      : null,
    close: () =>
      runEvery([
        () => ledger.close(),
        () => holds.stop(),
        () => cluster.close(),
        () => files.close(),
        () => providers.close(),
        () => database.close(),
      ]),
  };
}

/**
 * PostgreSQL deployments may run many API processes, which must share one count; on SQLite a
 * single process serves the API and counts in memory.
 */
function windowCounter(database: DatabaseHandle, windowSeconds: number): WindowCounter {
  return database.dialect === "postgres"
    ? new DatabaseWindowCounter(database.db, windowSeconds)
    : new MemoryWindowCounter();
}

/** Runs every step in order whatever the ones before did; fails as `Services.close` says. */
async function runEvery(steps: (() => Promise<void>)[]): Promise<void> {
  const failures: unknown[] = [];
  for (const step of steps) {
    try {
      await step();
    } catch (error) {
      failures.push(error);
    }
  }
  if (failures.length === 1) throw failures[0];
  if (failures.length > 1) throw new AggregateError(failures, "closing the services failed");
}
