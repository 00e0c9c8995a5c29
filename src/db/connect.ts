import { mkdirSync } from "node:fs";
import path from "node:path";
import SqliteDatabase from "better-sqlite3";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { ConnectionTurns } from "./connection-turns.js";
import { kyselyStatements } from "./kysely-statements.js";
import type { Database } from "./schema.js";
import { QueuedSqliteDialect } from "./sqlite-driver.js";
import { sqliteStatements } from "./sqlite-statements.js";
import type { StatementDatabase } from "./statements.js";
import { startWalCheckpointer } from "./wal-checkpointer.js";

export type DialectName = "sqlite" | "postgres";

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  /** The hot path's hand-written SQL, run without the query builder (see statements.ts). */
  statements: StatementDatabase;
  close(): Promise<void>;
}

const PG_INT8_OID = 20;
const PG_NUMERIC_OID = 1700;

/** Opens the database named by a `sqlite:<path>` or `postgres://…` URL. */
export function connectDatabase(url: string): DatabaseHandle {
  if (url.startsWith("sqlite:")) return connectSqlite(url.slice("sqlite:".length));
  if (url.startsWith("postgres://") || url.startsWith("postgresql://")) return connectPostgres(url);
  throw new Error(`unsupported database url: ${url.split(":")[0]}:…`);
}

function connectSqlite(file: string): DatabaseHandle {
  if (file !== ":memory:") mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SqliteDatabase(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("foreign_keys = ON");
  // Other processes (CLI, workers) may hold the write lock briefly.
  sqlite.pragma("busy_timeout = 5000");
  const checkpointer = file === ":memory:" ? null : startWalCheckpointer(sqlite, file);
  const connection = withStatementCache(sqlite);
  const turns = new ConnectionTurns();
  const db = new Kysely<Database>({
    dialect: new QueuedSqliteDialect({ database: connection }, turns),
  });
  return {
    db,
    dialect: "sqlite",
    statements: sqliteStatements(db, connection, turns),
    close: async () => {
      await checkpointer?.stop();
      await db.destroy();
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

function connectPostgres(url: string): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    // Money and times fit in 53 bits; read them as plain numbers.
    types: {
      getTypeParser: (oid: number, format?: "text" | "binary") =>
        oid === PG_INT8_OID || oid === PG_NUMERIC_OID
          ? (value: string) => Number(value)
          : pg.types.getTypeParser(oid, format),
    },
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: "postgres", statements: kyselyStatements(db), close: () => db.destroy() };
}
