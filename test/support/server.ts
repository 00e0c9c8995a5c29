import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { stringify } from "yaml";
import { type App, type AppOptions, buildApp } from "../../src/app.js";
import type { BatchWorkerOptions, WorkerLog } from "../../src/batches/worker.js";
import { createBatchWorker } from "../../src/cli/worker.js";
import type { CompletionService } from "../../src/completions/types.js";
import { type Config, loadConfig } from "../../src/config/index.js";
import { createServices, type ServiceOptions, type Services } from "../../src/services.js";
import type { Clock } from "../../src/util/clock.js";
import { usdToNanos } from "../../src/util/money.js";
import { copyMigratedSqlite } from "./migrated-template.js";

/** A batch worker in the server's process, as `sibyl serve` runs one. */
export interface TestWorkerOptions extends Partial<BatchWorkerOptions> {
  /** Where the worker reports; default the app's logger (silent unless a test gives one). */
  log?: WorkerLog;
  /** The completions its lines run through, made from the real ones (a test's hooks around them). */
  completions?: (real: CompletionService) => CompletionService;
}

export interface TestServerOptions {
  /** Raw configuration file content (YAML keys); the database defaults to a fresh SQLite file. */
  config?: Record<string, unknown>;
  /** e.g. a PostgreSQL URL from createTestDatabase(). */
  databaseUrl?: string;
  clock?: Clock;
  /** The app's logger; silent unless given. */
  logger?: AppOptions["logger"];
  /** The app's other options: request timeouts, the dashboard build. */
  app?: Omit<AppOptions, "logger">;
  /** What the services read beside the configuration: `*_env` secrets, extra research sources. */
  services?: Omit<ServiceOptions, "clock">;
  /** Run a batch worker too, polling every 20 ms unless told otherwise. */
  worker?: boolean | TestWorkerOptions;
}

export interface TestOrg {
  organizationId: string;
  apiKey: string;
  apiKeyId: string;
}

export interface TestServer {
  url: string;
  app: App;
  services: Services;
  config: Config;
  /** The configuration file, as `sibyl --config` reads it, in the data directory. */
  configFile: string;
  dataDir: string;
  /** A new organization with a key and `usd` of credits. */
  createOrg(usd?: string): Promise<TestOrg>;
  /** Stops the batch worker, if one runs; the server keeps serving. */
  stopWorker(): Promise<void>;
  close(): Promise<void>;
}

const WORKER_POLL_MS = 20;

/** Loads configuration the way `sibyl serve` does: from a YAML file in a fresh data directory. */
export function writeTestConfig(options: Pick<TestServerOptions, "config" | "databaseUrl">): {
  config: Config;
  configFile: string;
  dataDir: string;
} {
  const dataDir = mkdtempSync(path.join(tmpdir(), "sibyl-test-"));
  const raw: Record<string, unknown> = { ...options.config };
  // Security tests send hundreds of wrong keys from one address: the budget of failed
  // authentications is off unless a test sets it (failed-authentications.test.ts does).
  const limits = (raw.limits ?? {}) as Record<string, unknown>;
  raw.limits = { failed_authentications_per_minute: 0, ...limits };
  if (options.databaseUrl) raw.database = { url: options.databaseUrl };
  else if (raw.database === undefined) copyMigratedSqlite(path.join(dataDir, "sibyl.db"));
  const configFile = path.join(dataDir, "sibyl.yaml");
  writeFileSync(configFile, stringify(raw));
  const config = loadConfig({ file: configFile, env: { SIBYL_DATA_DIR: dataDir }, cwd: dataDir });
  return { config, configFile, dataDir };
}

function startWorker(services: Services, app: App, options: TestWorkerOptions) {
  const { log, completions, ...workerOptions } = options;
  const workerServices = completions
    ? { ...services, completions: completions(services.completions) }
    : services;
  return createBatchWorker(workerServices, log ?? app.log, {
    pollMs: WORKER_POLL_MS,
    ...workerOptions,
  });
}

/** The real app on a real loopback port, over a real database. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const { config, configFile, dataDir } = writeTestConfig(options);
  const services = await createServices(config, {
    ...options.services,
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const app = await buildApp(services, { ...options.app, logger: options.logger ?? false });
  const address = await app.listen({ host: "127.0.0.1", port: 0 });
  const worker = options.worker
    ? startWorker(services, app, options.worker === true ? {} : options.worker)
    : null;
  return {
    url: address,
    app,
    services,
    config,
    configFile,
    dataDir,
    createOrg: async (usd = "0") => {
      const organization = await services.organizations.create("test org");
      const key = await services.apiKeys.issue(organization.id);
      const nanos = usdToNanos(usd);
      if (nanos > 0) await services.ledger.credit(organization.id, nanos, "topup");
      return { organizationId: organization.id, apiKey: key.api_key, apiKeyId: key.api_key_id };
    },
    stopWorker: async () => {
      await worker?.stop();
    },
    close: async () => {
      await worker?.stop();
      // Test clients keep idle sockets open for seconds; they must not hold up the shutdown.
      app.server.closeAllConnections();
      await app.close();
      await services.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
