import { randomBytes } from "node:crypto";
import pg from "pg";

/** The PostgreSQL server the suite uses; `.ci/run` starts it. Unreachable means the suite fails. */
export const POSTGRES_ADMIN_URL =
  process.env.SIBYL_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A fresh, empty database for one test file. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `sibyl_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(
      `PostgreSQL is required for this suite but ${POSTGRES_ADMIN_URL} is unreachable (${(error as Error).message}). Start it (see .ci/run) or set SIBYL_TEST_POSTGRES_URL.`,
    );
  }
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
