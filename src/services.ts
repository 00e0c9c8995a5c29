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

/** Payment rails and their signer, checked before anything is opened; null without payments. */
async function paymentSetup(config: Config, env: Record<string, string | undefined>) {
  return config.payments
    ? { config: config.payments, ...(await createPaymentSetup(config.payments, env)) }
    : null;
}

type Payments = NonNullable<Awaited<ReturnType<typeof paymentSetup>>>;

/** The database, migrated unless `migrate` is false; closed again when migrating fails. */
async function openDatabase(config: Config, migrate: boolean): Promise<DatabaseHandle> {
  const database = connectDatabase(config.database.url, {
    poolSize: config.database.pool_size,
    statementTimeoutMs: config.database.statement_timeout_ms,
    connectTimeoutMs: config.database.connect_timeout_ms,
    preparedStatements: config.database.prepared_statements,
    onConnectionError: (error) =>
      stderrClusterLog.error({ err: error }, "database connection failed; dropped"),
  });
  try {
    if (migrate) await migrateToLatest(database);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

/** What the completion pipeline is built from. */
interface PipelineParts {
  config: Config;
  clock: Clock;
  database: DatabaseHandle;
  catalogue: ModelCatalogue;
  providers: ProviderRegistry;
  ledger: Ledger;
  holds: HoldKeeper;
  metrics: ServiceMetrics;
  calibrations: Calibrations;
  researchSources: ReturnType<typeof configuredSources>;
  researchLog: ResearchLog | undefined;
}

/** Chat, text and Responses completions with their research, classifier and track record. */
function completionPipeline(parts: PipelineParts): CompletionPipeline {
  const { config, clock, database, providers, metrics } = parts;
  return new CompletionPipeline({
    config,
    clock,
    database: database.db,
    catalogue: parts.catalogue,
    providers,
    ledger: parts.ledger,
    holds: parts.holds,
    metrics,
    classifier: new QuestionClassifier(config, providers),
    forecasts: new ForecastRecorder(database.db, stderrClusterLog),
    calibrations: parts.calibrations,
    research: new Research(
      parts.researchSources(new ArchiveSource(database.db)),
      {
        cacheSeconds: config.research.cache_seconds,
        contextTokens: config.research.context_tokens,
      },
      {
        clock,
        metrics,
        log: parts.researchLog ?? stderrResearchLog(config.server.log_level),
      },
    ),
  });
}

/** Top-ups and the reconciliation of payments that landed unredeemed, for configured payments. */
function paymentServices(
  payments: Payments,
  parts: { config: Config; clock: Clock; database: DatabaseHandle; ledger: Ledger },
  accounts: Accounts,
  apiKeys: ApiKeys,
): { topups: Topups; reconciliation: Reconciliation } {
  const { config, clock, database, ledger } = parts;
  const realm = new URL(config.server.public_url).host;
  return {
    topups: new Topups({
      db: database.db,
      clock,
      ledger,
      accounts,
      apiKeys,
      signer: payments.signer,
      rails: payments.rails,
      realm,
      challengeTtlSeconds: payments.config.challenge_ttl_seconds,
      throttle: new CredentialThrottle(
        windowCounter(database, CREDENTIAL_WINDOW_SECONDS),
        clock,
        payments.config.limits,
      ),
    }),
    reconciliation: new Reconciliation({
      db: database.db,
      clock,
      ledger,
      accounts,
      rails: payments.rails,
      realm,
    }),
  };
}

/** Organizations, their keys and accounts, and the links that sign a browser in. */
function accountServices(database: DatabaseHandle, clock: Clock, cluster: Cluster, ledger: Ledger) {
  const organizations = new Organizations(database.db, clock);
  const apiKeys = new ApiKeys(database.db, clock, cluster);
  return {
    organizations,
    apiKeys,
    accounts: new Accounts(database.db, organizations, apiKeys, ledger),
    organizationKeys: new OrganizationKeys(database.db, clock, apiKeys),
    signInLinks: new SignInLinks(database.db, clock, organizations, apiKeys),
  };
}

/** What reads the money and the track record back: history, usage, costs, questions, scores. */
function reportServices(database: DatabaseHandle, clock: Clock) {
  return {
    ledgerHistory: new LedgerHistory(database.db),
    usage: new UsageReports(database.db),
    costs: new CostReports(database.db),
    questions: new Questions(database.db, clock),
    scores: new Scores(database.db),
  };
}

/** The batch API, announcing new work to the cluster's workers. */
function batchService(
  parts: { config: Config; clock: Clock; database: DatabaseHandle; ledger: Ledger },
  files: Files,
  catalogue: ModelCatalogue,
  completions: CompletionPipeline,
  cluster: Cluster,
): Batches {
  const { config, database, ledger } = parts;
  const batches = new Batches(database.db, parts.clock, {
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
  return batches;
}

export async function createServices(
  config: Config,
  options: ServiceOptions = {},
): Promise<Services> {
  const clock = options.clock ?? systemClock;
  const env = options.env ?? process.env;
  // Payment secrets and research sources are checked before anything is opened: a missing
  // secret stops the start.
  const payments = await paymentSetup(config, env);
  const researchSources = configuredSources(config.research, {
    http: { ...HTTP_PROVIDERS, ...options.researchProviders },
    env,
  });
  const database = await openDatabase(config, options.migrate ?? true);
  const cluster = await openCluster(config.database, database, stderrClusterLog);
  const metrics = new ServiceMetrics();
  const ledger = new Ledger(database.db, clock, newId("prc_", 16));
  const holds = new HoldKeeper(database.db, ledger, clock, config.batches.lease_seconds);
  const catalogue = new ModelCatalogue(config.models);
  const files = new Files(database.db, await createBlobStore(config.files, env), clock);
  const calibrations = new Calibrations(
    database.db,
    clock,
    (id) => catalogue.has(id),
    (organizationId, id) => files.evaluationSummary(organizationId, id),
  );
  const providers = new ProviderRegistry(config.models, {
    env,
    describeForecast: describeBaselineForecast,
  });
  const completions = completionPipeline({
    config,
    clock,
    database,
    catalogue,
    providers,
    ledger,
    holds,
    metrics,
    calibrations,
    researchSources,
    researchLog: options.researchLog,
  });
  const accounts = accountServices(database, clock, cluster, ledger);
  const core = { config, clock, database, ledger };
  const batches = batchService(core, files, catalogue, completions, cluster);
  const paid = payments
    ? paymentServices(payments, core, accounts.accounts, accounts.apiKeys)
    : null;
  return {
    config,
    clock,
    database,
    metrics,
    ...accounts,
    ...reportServices(database, clock),
    ledger,
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
    calibrations,
    topups: paid?.topups ?? null,
    reconciliation: paid?.reconciliation ?? null,
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
