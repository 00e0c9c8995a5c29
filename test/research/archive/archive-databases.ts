import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { connectDatabase, type DatabaseHandle } from "../../../src/db/connect.js";
import { migrateToLatest } from "../../../src/db/migrate.js";
import { copyMigratedSqlite } from "../../support/migrated-template.js";
import { createTestDatabase } from "../../support/postgres.js";

/** A migrated, empty database of one kind, and how to throw it away. */
export interface ArchiveDatabase {
  handle: DatabaseHandle;
  dispose(): Promise<void>;
}

export interface ArchiveDatabaseKind {
  name: "sqlite" | "postgres";
  create(): Promise<ArchiveDatabase>;
}

async function migrated(url: string, cleanup: () => Promise<void>): Promise<ArchiveDatabase> {
  const handle = connectDatabase(url);
  await migrateToLatest(handle);
  return {
    handle,
    dispose: async () => {
      await handle.close();
      await cleanup();
    },
  };
}

export const sqliteArchive: ArchiveDatabaseKind = {
  name: "sqlite",
  create: async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "sibyl-archive-"));
    copyMigratedSqlite(path.join(dir, "sibyl.db"));
    return migrated(`sqlite:${path.join(dir, "sibyl.db")}`, async () =>
      rmSync(dir, { recursive: true, force: true }),
    );
  },
};

export const postgresArchive: ArchiveDatabaseKind = {
  name: "postgres",
  create: async () => {
    const database = await createTestDatabase();
    return migrated(database.url, () => database.drop());
  },
};

export const BOTH_ARCHIVES = [sqliteArchive, postgresArchive];
