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
  const execute = (statement: string) => connection.prepare(statement).run([]);
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

  const transactionScope = (depth: number): Db => {
    const nested = savepointRunner(depth, async (statement) => execute(statement));
    return {
      dialect: "sqlite",
      inTransaction: true,
      query: inTurnQuery,
      ...inTurn,
      transaction: (work) => nested(() => work(transactionScope(depth + 1))),
    };
  };

  /** Runs one member; one that throws leaves no trace of its writes. */
  const runMember = async (item: QueuedWork, alone: boolean) => {
    // A failure SQLite answers by rolling back the whole transaction (a full disk, an I/O
    // error) must not let the members after it run, and commit, on their own.
    if (!connection.inTransaction) throw new Error("the group's transaction ended early");
    if (alone) {
      // Alone in its group, a member that throws rolls the group's transaction back whole.
      const value = await item.work(transactionScope(1));
      return () => item.resolve(value);
    }
    if (!item.single) execute("savepoint unit");
    try {
      const value = await item.work(transactionScope(1));
      if (!item.single) execute("release unit");
      return () => item.resolve(value);
    } catch (error) {
      if (!item.single) {
        execute("rollback to unit");
        execute("release unit");
      }
      return () => item.reject(error);
    }
  };

  const commitGroup = async (group: QueuedWork[]) => {
    try {
      // Immediate: take the write lock now rather than fail to upgrade a read lock later.
      execute("begin immediate");
      const outcomes = [];
      for (const item of group) outcomes.push(await runMember(item, group.length === 1));
      execute("commit");
      for (const outcome of outcomes) outcome();
    } catch (error) {
      // The group's transaction itself failed (lock timeout, failed commit): nothing was kept.
      let failure = error;
      try {
        if (connection.inTransaction) execute("rollback");
      } catch (rollbackError) {
        failure = rollbackError;
      }
      for (const item of group) item.reject(failure);
    }
  };

  let queue: QueuedWork[] = [];
  const flush = async () => {
    const group = queue;
    queue = [];
    const waiting = turns.take();
    if (waiting) await waiting;
    try {
      await commitGroup(group);
    } finally {
      turns.give();
    }
  };

  const enqueue = <T>(work: (tx: Db) => Promise<T>, single: boolean) =>
    new Promise<T>((resolve, reject) => {
      queue.push({ work, single, resolve: (value) => resolve(value as T), reject });
      if (queue.length === 1) setImmediate(() => void flush());
    });
  return {
    dialect: "sqlite",
    inTransaction: false,
    query: kysely,
    rows: (statement) => enqueue((tx) => tx.rows(statement), true),
    changes: (statement) => enqueue((tx) => tx.changes(statement), true),
    transaction: (work) => enqueue(work, false),
  };
}
