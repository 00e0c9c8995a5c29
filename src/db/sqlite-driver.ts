import {
  type DatabaseConnection,
  type Driver,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
} from "kysely";

/**
 * Kysely's SQLite driver guards its one connection with a mutex that wakes every waiter on each
 * release, and all but one go back to sleep: with a worker's dozens of lines queued on the
 * database, each query cost dozens of wake-ups and their garbage. This driver hands the
 * connection to the next waiter in arrival order instead.
 */
class QueuedSqliteDriver extends SqliteDriver {
  private connection: DatabaseConnection | null = null;
  private busy = false;
  private readonly waiters: (() => void)[] = [];

  override async acquireConnection(): Promise<DatabaseConnection> {
    if (this.busy) await new Promise<void>((resolve) => this.waiters.push(resolve));
    this.busy = true;
    // The base driver's own lock is taken once, here, and never contended again.
    this.connection ??= await super.acquireConnection();
    return this.connection;
  }

  override async releaseConnection(): Promise<void> {
    const next = this.waiters.shift();
    if (next) next();
    else this.busy = false;
  }
}

/** SqliteDialect with the queued driver. */
export class QueuedSqliteDialect extends SqliteDialect {
  constructor(private readonly config: SqliteDialectConfig) {
    super(config);
  }

  override createDriver(): Driver {
    return new QueuedSqliteDriver(this.config);
  }
}
