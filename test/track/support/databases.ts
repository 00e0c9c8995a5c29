import { afterAll, beforeAll } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";

/** Each track-record suite runs on a fresh SQLite file and on a fresh PostgreSQL database. */
export const DATABASES = ["sqlite", "postgres"] as const;
export type DatabaseName = (typeof DATABASES)[number];

/**
 * The database URL for the suite (undefined: the server's own SQLite file), made before its
 * tests and dropped after them.
 */
export function suiteDatabase(name: DatabaseName): () => string | undefined {
  let database: TestDatabase | null = null;
  beforeAll(async () => {
    if (name === "postgres") database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });
  return () => database?.url;
}
