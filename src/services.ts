import { ApiKeys } from "./auth/api-keys.js";
import { Organizations } from "./auth/organizations.js";
import { Ledger } from "./billing/ledger.js";
import type { Config } from "./config/index.js";
import { connectDatabase, type DatabaseHandle } from "./db/connect.js";
import { migrateToLatest } from "./db/migrate.js";
import { ModelCatalogue } from "./models/catalogue.js";
import { type Clock, systemClock } from "./util/clock.js";

/** Everything the routes and workers use, built once from the configuration. */
export interface Services {
  config: Config;
  clock: Clock;
  database: DatabaseHandle;
  organizations: Organizations;
  apiKeys: ApiKeys;
  ledger: Ledger;
  catalogue: ModelCatalogue;
  close(): Promise<void>;
}

export interface ServiceOptions {
  clock?: Clock;
  /** Run migrations before use (default true; `sibyl migrate` runs them on its own). */
  migrate?: boolean;
}

export async function createServices(config: Config, options: ServiceOptions = {}): Promise<Services> {
  const clock = options.clock ?? systemClock;
  const database = connectDatabase(config.database.url);
  try {
    if (options.migrate ?? true) await migrateToLatest(database);
  } catch (error) {
    await database.close();
    throw error;
  }
  return {
    config,
    clock,
    database,
    organizations: new Organizations(database.db, clock),
    apiKeys: new ApiKeys(database.db, clock),
    ledger: new Ledger(database, clock),
    catalogue: new ModelCatalogue(config.models),
    close: () => database.close(),
  };
}
