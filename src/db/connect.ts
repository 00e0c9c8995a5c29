import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import SqliteDatabase from "better-sqlite3";
import { Kysely, PostgresDialect } from "kysely";
import type pg from "pg";
import { ConnectionTurns } from "./connection-turns.js";
import type { Db, DialectName } from "./database.js";
import { DatabaseOpenError } from "./open-error.js";
import { postgresDatabase } from "./postgres-database.js";
import { preparingPool } from "./prepared-statements.js";
import type { Database } from "./schema.js";
import { sqliteDatabase } from "./sqlite-database.js";
import { QueuedSqliteDialect } from "./sqlite-driver.js";
import { startWalCheckpointer } from "./wal-checkpointer.js";

export type { DialectName } from "./database.js";

export interface DatabaseHandle {
  /** The data-access layer every service uses. */
  db: Db;
  dialect: DialectName;
  /** Kysely itself, for migrations. */
  kysely: Kysely<Database>;
  /** SQLite only: a number that changes whenever another connection commits to the file. */
  dataVersion?: () => number;
  close(): Promise<void>;
}

/**
 * The PostgreSQL driver, loaded when a PostgreSQL database is first opened: a server or command
 * on SQLite never holds its ~8 MB.
 */
export function postgresDriver(): typeof pg {
  return createRequire(import.meta.url)("pg") as typeof pg;
}

const PG_INT8_OID = 20;
const PG_NUMERIC_OID = 1700;

/** How PostgreSQL connections are made and bounded; SQLite ignores these. */
export interface ConnectionOptions {
  /** Connections in the pool (default 10). */
  poolSize?: number;
  /** A statement running longer is cancelled by the server (default 30 s; 0: no limit). */
  statementTimeoutMs?: number;
  /** Longest wait for a new connection, and for a free one in the pool (default 5 s). */
  connectTimeoutMs?: number;
  /**
   * Statements that repeat run as named (prepared) statements, planned once per connection
   * (default true). Off for a pooler that shares server connections between transactions.
   */
  preparedStatements?: boolean;
  /** Told about pooled connections that failed; they are dropped and replaced on demand. */
  onConnectionError?: (error: Error) => void;
}

/** Opens the database named by a `sqlite:<path>` or `postgres://…` URL. */
export function connectDatabase(url: string, options: ConnectionOptions = {}): DatabaseHandle {
  if (url.startsWith("sqlite:")) return connectSqlite(url.slice("sqlite:".length));
  if (isPostgresUrl(url)) return connectPostgres(url, options);
  throw new Error(`unsupported database url: ${url.split(":")[0]}:…`);
}

export function isPostgresUrl(url: string): boolean {
  return url.startsWith("postgres://") || url.startsWith("postgresql://");
}

/** The settings of one PostgreSQL connection, pooled or dedicated (see cluster/). */
export function postgresClientConfig(url: string, options: ConnectionOptions): pg.ClientConfig {
  const statementTimeout = options.statementTimeoutMs ?? 30_000;
  return {
    connectionString: url,
    application_name: "sibyl",
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    ...(statementTimeout > 0 ? { statement_timeout: statementTimeout } : {}),
    // Notices a peer that vanished without closing (a dead host, a cut network) in minutes,
    // not the hours the system default takes.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    // Money and times fit in 53 bits; read them as plain numbers.
    types: {
      getTypeParser: (oid: number, format?: "text" | "binary") =>
        oid === PG_INT8_OID || oid === PG_NUMERIC_OID
          ? (value: string) => Number(value)
          : postgresDriver().types.getTypeParser(oid, format),
    },
  };
}

/** How long opening a SQLite file waits for another process's write to it. */
const SQLITE_OPEN_WAIT_MS = 5_000;
const SQLITE_OPEN_RETRY_MS = 10;

/**
 * Turns the write-ahead log on, waiting while another process writes to the file. SQLite
 * answers "database is locked" at once here, without its busy timeout, when another connection
 * is writing to a file still in rollback mode (as a second `sibyl` command is while it turns the
 * log on for a new file): waiting inside the statement could deadlock, so the wait is here.
 */
function turnOnWriteAheadLog(sqlite: SqliteDatabase.Database): void {
  const deadline = Date.now() + SQLITE_OPEN_WAIT_MS;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      sqlite.pragma("journal_mode = WAL");
      return;
    } catch (error) {
      if (!isSqliteBusy(error) || Date.now() >= deadline) throw error;
      Atomics.wait(pause, 0, 0, SQLITE_OPEN_RETRY_MS);
    }
  }
}

function isSqliteBusy(error: unknown): boolean {
  return error instanceof SqliteDatabase.SqliteError && error.code.startsWith("SQLITE_BUSY");
}

/** The SQLite file opened with its write-ahead log on, its folder created if need be. */
function openSqliteFile(file: string): SqliteDatabase.Database {
  let sqlite: SqliteDatabase.Database | null = null;
  try {
    if (file !== ":memory:") mkdirSync(path.dirname(file), { recursive: true });
    sqlite = new SqliteDatabase(file);
    turnOnWriteAheadLog(sqlite);
    return sqlite;
  } catch (error) {
    sqlite?.close();
    throw new DatabaseOpenError(file, error);
  }
}

function connectSqlite(file: string): DatabaseHandle {
  const sqlite = openSqliteFile(file);
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("foreign_keys = ON");
  // Other processes (CLI, workers) may hold the write lock briefly.
  sqlite.pragma("busy_timeout = 5000");
  const connection = withStatementCache(sqlite);
  const turns = new ConnectionTurns();
  const checkpointer = file === ":memory:" ? null : startWalCheckpointer(sqlite, file, turns);
  const kysely = new Kysely<Database>({
    dialect: new QueuedSqliteDialect({ database: connection }, turns),
  });
  const dataVersion = sqlite.prepare("pragma data_version").pluck();
  return {
    db: sqliteDatabase(kysely, connection, turns),
    dialect: "sqlite",
    kysely,
    dataVersion: () => dataVersion.get() as number,
    close: async () => {
      await checkpointer?.stop();
      await kysely.destroy();
    },
  };
}

/** Distinct SQL texts are few (the queries are built from fixed shapes); this bounds the cache. */
const STATEMENT_CACHE_LIMIT = 1000;

/**
 * Prepares each distinct SQL text once. Kysely prepares every query anew, and on the hot path
 * (auth, holds, settlement) preparing costs about as much as running the statement.
 */
function withStatementCache(sqlite: SqliteDatabase.Database) {
  const statements = new Map<string, SqliteDatabase.Statement>();
  return {
    get inTransaction() {
      return sqlite.inTransaction;
    },
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (!statement) {
        if (statements.size >= STATEMENT_CACHE_LIMIT) statements.clear();
        statement = sqlite.prepare(sql);
        statements.set(sql, statement);
      }
      return statement;
    },
    close() {
      sqlite.close();
    },
  };
}

function connectPostgres(url: string, options: ConnectionOptions): DatabaseHandle {
  const pool = new (postgresDriver().Pool)({
    ...postgresClientConfig(url, options),
    max: options.poolSize ?? 10,
  });
  // A connection the server closed (a restart, pg_terminate_backend, a failover) is dropped by
  // the pool, and a new one opened when needed. Unheard, its error would end the process: the
  // pool listens only while a connection is idle, so one checked out between two statements is
  // heard here, and the statement that comes next fails instead.
  pool.on("connect", (client) => client.on("error", (error) => options.onConnectionError?.(error)));
  // The pool repeats an idle connection's error, which its own listener above has reported.
  pool.on("error", () => undefined);
  const kysely = new Kysely<Database>({
    dialect: new PostgresDialect({
      pool: options.preparedStatements === false ? pool : preparingPool(pool),
    }),
  });
  return {
    db: postgresDatabase(kysely),
    dialect: "postgres",
    kysely,
    close: () => kysely.destroy(),
  };
}
