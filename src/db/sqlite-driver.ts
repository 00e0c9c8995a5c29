import {
  CompiledQuery,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  SqliteAdapter,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
} from "kysely";
import type { ConnectionTurns } from "./connection-turns.js";

/**
 * Kysely's SQLite driver guards its one connection with a mutex that wakes every waiter on each
 * release, and all but one go back to sleep: with a worker's dozens of lines queued on the
 * database, each query cost dozens of wake-ups and their garbage. This driver hands the
 * connection on in arrival order instead, through turns it shares with the hot-path statements.
 */
class QueuedSqliteDriver extends SqliteDriver {
  private connection: DatabaseConnection | null = null;

  constructor(
    config: SqliteDialectConfig,
    private readonly turns: ConnectionTurns,
  ) {
    super(config);
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    await this.turns.take();
    // The base driver's own lock is taken once, here, and never contended again.
    this.connection ??= await super.acquireConnection();
    return this.connection;
  }

  override async releaseConnection(): Promise<void> {
    this.turns.give();
  }

  /**
   * Kysely's own transactions here are migrations (the service's run through sqlite-database.ts).
   * Taking the write lock at the start makes a second process migrating the same file wait for
   * the first to commit (busy_timeout) rather than fail halfway through a migration.
   */
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("begin immediate"));
  }
}

/**
 * SQLite's DDL is transactional, though Kysely's adapter says otherwise to be safe. Saying so lets
 * the migrator run every pending migration in one transaction: a migration that fails leaves
 * nothing behind, and processes migrating one file at once take turns.
 */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/** SqliteDialect with the queued driver. */
export class QueuedSqliteDialect extends SqliteDialect {
  constructor(
    private readonly config: SqliteDialectConfig,
    private readonly turns: ConnectionTurns,
  ) {
    super(config);
  }

  override createDriver(): Driver {
    return new QueuedSqliteDriver(this.config, this.turns);
  }

  override createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter();
  }
}
