import path from "node:path";
import type { Services } from "../../src/services.js";
import type { Clock } from "../../src/util/clock.js";
import { copyMigratedSqlite } from "./migrated-template.js";
import { createTestDatabase, type TestDatabaseOptions } from "./postgres.js";
import { openServices, sqliteUrl } from "./services.js";
import { TempDirs } from "./temp-dir.js";

/** One new database plus a way to open any number of independent connections to it. */
export interface DatabaseUnderTest {
  /** Services on their own connection (pool); several model several processes. */
  open(clock?: Clock): Promise<Services>;
  /**
   * Ends opened services as a killed process ends: its connection is cut first, so nothing it
   * would give back on its way out reaches the database, and what it held in memory is lost.
   */
  crash(services: Services): Promise<void>;
  dispose(): Promise<void>;
}

export interface DatabaseKind {
  name: "sqlite" | "postgres";
  /** Migrated, unless asked to be empty. */
  create(options?: TestDatabaseOptions): Promise<DatabaseUnderTest>;
}

function track(url: string, dataDir: string, cleanup: () => Promise<void>): DatabaseUnderTest {
  const opened: Services[] = [];
  return {
    open: async (clock) => {
      const services = await openServices(url, dataDir, clock);
      opened.push(services);
      return services;
    },
    crash: async (services) => {
      opened.splice(opened.indexOf(services), 1);
      await services.database.close();
      // Its timers end with it; the goodbyes they would write fail on the cut connection.
      await Promise.allSettled([
        services.ledger.close(),
        services.holds.stop(),
        services.cluster.close(),
        services.files.close(),
        services.providers.close(),
      ]);
    },
    dispose: async () => {
      for (const services of opened.splice(0)) await services.close();
      await cleanup();
    },
  };
}

export const sqliteDatabase: DatabaseKind = {
  name: "sqlite",
  create: async (options = {}) => {
    const temp = new TempDirs();
    const dataDir = temp.make("sibyl-sqlite-");
    if (!options.empty) copyMigratedSqlite(path.join(dataDir, "sibyl.db"));
    return track(sqliteUrl(dataDir), dataDir, async () => temp.removeAll());
  },
};

export const postgresDatabase: DatabaseKind = {
  name: "postgres",
  create: async (options = {}) => {
    const temp = new TempDirs();
    const dataDir = temp.make("sibyl-postgres-");
    const database = await createTestDatabase(options);
    return track(database.url, dataDir, async () => {
      await database.drop();
      temp.removeAll();
    });
  },
};

export const BOTH_DATABASES = [sqliteDatabase, postgresDatabase];
