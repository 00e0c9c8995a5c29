import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { stringify } from "yaml";
import { type App, type AppOptions, buildApp } from "../../src/app.js";
import { type Config, loadConfig } from "../../src/config/index.js";
import { createServices, type Services } from "../../src/services.js";
import type { Clock } from "../../src/util/clock.js";
import { usdToNanos } from "../../src/util/money.js";
import { copyMigratedSqlite } from "./migrated-template.js";

export interface TestServerOptions {
  /** Raw configuration file content (YAML keys); the database defaults to a fresh SQLite file. */
  config?: Record<string, unknown>;
  /** e.g. a PostgreSQL URL from createTestDatabase(). */
  databaseUrl?: string;
  clock?: Clock;
  /** The app's logger; silent unless given. */
  logger?: AppOptions["logger"];
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
  dataDir: string;
  /** A new organization with a key and `usd` of credits. */
  createOrg(usd?: string): Promise<TestOrg>;
  close(): Promise<void>;
}

/** Loads configuration the way `sibyl serve` does: from a YAML file in a fresh data directory. */
export function writeTestConfig(options: TestServerOptions): { config: Config; dataDir: string } {
  const dataDir = mkdtempSync(path.join(tmpdir(), "sibyl-test-"));
  const raw: Record<string, unknown> = { ...options.config };
  // Security tests send hundreds of wrong keys from one address: the budget of failed
  // authentications is off unless a test sets it (failed-authentications.test.ts does).
  const limits = (raw.limits ?? {}) as Record<string, unknown>;
  raw.limits = { failed_authentications_per_minute: 0, ...limits };
  if (options.databaseUrl) raw.database = { url: options.databaseUrl };
  else if (raw.database === undefined) copyMigratedSqlite(path.join(dataDir, "sibyl.db"));
  const file = path.join(dataDir, "sibyl.yaml");
  writeFileSync(file, stringify(raw));
  const config = loadConfig({ file, env: { SIBYL_DATA_DIR: dataDir }, cwd: dataDir });
  return { config, dataDir };
}

/** The real app on a real loopback port, over a real database. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const { config, dataDir } = writeTestConfig(options);
  const services = await createServices(config, options.clock ? { clock: options.clock } : {});
  const app = await buildApp(services, { logger: options.logger ?? false });
  const address = await app.listen({ host: "127.0.0.1", port: 0 });
  return {
    url: address,
    app,
    services,
    config,
    dataDir,
    createOrg: async (usd = "0") => {
      const organization = await services.organizations.create("test org");
      const key = await services.apiKeys.issue(organization.id);
      const nanos = usdToNanos(usd);
      if (nanos > 0) await services.ledger.credit(organization.id, nanos, "topup");
      return { organizationId: organization.id, apiKey: key.api_key, apiKeyId: key.api_key_id };
    },
    close: async () => {
      await app.close();
      await services.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
