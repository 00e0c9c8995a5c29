import { Kysely, type RawBuilder, type SqliteDatabase, SqliteDialect } from "kysely";
import type { ConnectionTurns } from "./connection-turns.js";
import type { Db, Statements } from "./database.js";
import { compileFragments } from "./fragment-compiler.js";
import { isPlain, type PlainStatement } from "./plain-statement.js";
import { savepointRunner } from "./savepoints.js";
import type { Database } from "./schema.js";

/** The part of a better-sqlite3 connection used here (statements come from a cache). */
export interface PreparingConnection extends SqliteDatabase {
  readonly inTransaction: boolean;
}

type Work = (tx: Db) => Promise<unknown>;

interface QueuedWork {
  work: Work;
  /** One statement: SQLite undoes a failed statement by itself, so it needs no savepoint. */
  single: boolean;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/**
 * The data-access layer on SQLite. Everything runs on the one connection, in turn with Kysely's
 * autocommit queries, and transactions run in groups: all those requested while the event loop
 * handles one round of I/O (single statements too) share one `begin immediate … commit`, each in
 * its own savepoint. Opening and committing a transaction cost more than all of a credit hold's
 * statements together, and a read's own transaction more than the read. Inside a transaction,
 * queries run directly on the connection the group holds, and nested transactions are savepoints.
 */
export function sqliteDatabase(
  kysely: Kysely<Database>,
  connection: PreparingConnection,
  turns: ConnectionTurns,
): Db {
  const group = new CommitGroups(connection, turns, transactionScopes(kysely, connection));
  return {
    dialect: "sqlite",
    inTransaction: false,
    query: kysely,
    rows: (statement) => group.enqueue((tx) => tx.rows(statement), true),
    changes: (statement) => group.enqueue((tx) => tx.changes(statement), true),
    transaction: (work) => group.enqueue(work, false),
  };
}

type Execute = (statement: string) => void;

function executeOn(connection: PreparingConnection, statement: string): void {
  connection.prepare(statement).run([]);
}

/** The scope of a group's transaction at a depth of savepoints: statements run directly. */
type TransactionScope = (depth: number) => Db;

function transactionScopes(
  kysely: Kysely<Database>,
  connection: PreparingConnection,
): TransactionScope {
  const execute: Execute = (statement) => executeOn(connection, statement);
  const run = (statement: RawBuilder<unknown> | PlainStatement) => {
    const compiled = isPlain(statement)
      ? statement
      : (compileFragments(statement) ?? statement.compile(kysely));
    const prepared = connection.prepare(compiled.sql);
    return prepared.reader
      ? { rows: prepared.all(compiled.parameters), changes: 0 }
      : { rows: [], changes: Number(prepared.run(compiled.parameters).changes) };
  };
  const inTurn: Statements = {
    rows: async <R>(statement: RawBuilder<R> | PlainStatement) => run(statement).rows as R[],
    changes: async (statement) => run(statement).changes,
  };
  // Used only while a group holds the connection's turn: its queries must not wait for a turn.
  const inTurnQuery = new Kysely<Database>({
    dialect: new SqliteDialect({ database: connection }),
  });
  const scope: TransactionScope = (depth) => {
    const nested = savepointRunner(depth, async (statement) => execute(statement));
    return {
      dialect: "sqlite",
      inTransaction: true,
      query: inTurnQuery,
      ...inTurn,
      transaction: (work) => nested(() => work(scope(depth + 1))),
    };
  };
  return scope;
}

/** Collects the work asked for in one round of I/O and commits it as one transaction. */
class CommitGroups {
  private queue: QueuedWork[] = [];
  private readonly execute: Execute;

  constructor(
    private readonly connection: PreparingConnection,
    private readonly turns: ConnectionTurns,
    private readonly scope: TransactionScope,
  ) {
    this.execute = (statement) => executeOn(connection, statement);
  }

  enqueue<T>(work: (tx: Db) => Promise<T>, single: boolean): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, single, resolve: (value) => resolve(value as T), reject });
      if (this.queue.length === 1) setImmediate(() => void this.flush());
    });
  }

  private async flush(): Promise<void> {
    const group = this.queue;
    this.queue = [];
    const waiting = this.turns.take();
    if (waiting) await waiting;
    try {
      await this.commit(group);
    } finally {
      this.turns.give();
    }
  }

  private async commit(group: QueuedWork[]): Promise<void> {
    try {
      // Immediate: take the write lock now rather than fail to upgrade a read lock later.
      this.execute("begin immediate");
      const outcomes = [];
      for (const item of group) outcomes.push(await this.runMember(item, group.length === 1));
      this.execute("commit");
      for (const outcome of outcomes) outcome();
    } catch (error) {
      // The group's transaction itself failed (lock timeout, failed commit): nothing was kept.
      let failure = error;
      try {
        if (this.connection.inTransaction) this.execute("rollback");
      } catch (rollbackError) {
        failure = rollbackError;
      }
      for (const item of group) item.reject(failure);
    }
  }

  /** Runs one member; one that throws leaves no trace of its writes. */
  private async runMember(item: QueuedWork, alone: boolean): Promise<() => void> {
    // A failure SQLite answers by rolling back the whole transaction (a full disk, an I/O
    // error) must not let the members after it run, and commit, on their own.
    if (!this.connection.inTransaction) throw new Error("the group's transaction ended early");
    if (alone) {
      // Alone in its group, a member that throws rolls the group's transaction back whole.
      const value = await item.work(this.scope(1));
      return () => item.resolve(value);
    }
    if (!item.single) this.execute("savepoint unit");
    try {
      const value = await item.work(this.scope(1));
      if (!item.single) this.execute("release unit");
      return () => item.resolve(value);
    } catch (error) {
      if (!item.single) {
        this.execute("rollback to unit");
        this.execute("release unit");
      }
      return () => item.reject(error);
    }
  }
}
