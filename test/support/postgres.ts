import { randomBytes } from "node:crypto";
import pg from "pg";
import { createMigratedPostgres } from "./migrated-template.js";
import { waitForNoSessions } from "./postgres-sessions.js";

/** The PostgreSQL server the suite uses; `.ci/run` starts it. Unreachable means the suite fails. */
export const POSTGRES_ADMIN_URL =
  process.env.SIBYL_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

export interface TestDatabaseOptions {
  /** No tables at all, for tests of migrations; otherwise every migration is applied. */
  empty?: boolean;
  /**
   * Each commit waits until its WAL is on disk, as PostgreSQL's default does and a deployment
   * runs. Tests go without (a commit waits ~2.5 ms for fsync on these machines, and nothing in
   * them crashes PostgreSQL itself); the benchmark asks for it.
   */
  durable?: boolean;
}

/** A fresh database for one test file, migrated unless asked to be empty. */
export async function createTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const name = `sibyl_test_${randomBytes(6).toString("hex")}`;
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(
      `PostgreSQL is required for this suite but ${POSTGRES_ADMIN_URL} is unreachable (${(error as Error).message}). Start it (see .ci/run) or set SIBYL_TEST_POSTGRES_URL.`,
    );
  }
  try {
    if (options.empty) await admin.query(`CREATE DATABASE ${name}`);
    else await createMigratedPostgres(admin, name, url.toString(), POSTGRES_ADMIN_URL);
    if (!options.durable) await admin.query(`ALTER DATABASE ${name} SET synchronous_commit = off`);
  } finally {
    await admin.end();
  }
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await client.connect();
      try {
        await waitForNoSessions(client, name);
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/**
 * The pid of a session of `client`'s database that waits on a lock in a statement containing
 * `statementPart`, if one does now.
 */
export async function sessionWaitingOnLock(
  client: pg.Client,
  statementPart: string,
): Promise<number | undefined> {
  // Inside a transaction the activity view keeps its first reading unless told to refresh.
  await client.query("select pg_stat_clear_snapshot()");
  const waiting = await client.query<{ pid: number }>(
    `select pid from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'
        and strpos(query, $1) > 0`,
    [statementPart],
  );
  return waiting.rows[0]?.pid;
}
