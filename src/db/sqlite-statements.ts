import type { Kysely, RawBuilder } from "kysely";
import type { ConnectionTurns } from "./connection-turns.js";
import type { Database } from "./schema.js";
import type { StatementDatabase, Statements } from "./statements.js";

/** The part of a better-sqlite3 connection used here (statements come from a cache). */
export interface PreparingConnection {
  readonly inTransaction: boolean;
  prepare(sql: string): {
    reader: boolean;
    all(parameters: readonly unknown[]): unknown[];
    run(parameters: readonly unknown[]): { changes: number };
  };
}

/**
 * Statements run synchronously on the SQLite connection, in turn with Kysely's queries (the
 * connection is taken once per statement or transaction, not once per step as Kysely does).
 */
export function sqliteStatements(
  db: Kysely<Database>,
  connection: PreparingConnection,
  turns: ConnectionTurns,
): StatementDatabase {
  const run = (statement: RawBuilder<unknown>) => {
    const compiled = statement.compile(db);
    const prepared = connection.prepare(compiled.sql);
    return prepared.reader
      ? { rows: prepared.all(compiled.parameters), changes: 0 }
      : { rows: [], changes: prepared.run(compiled.parameters).changes };
  };
  const inTurn: Statements = {
    rows: async <R>(statement: RawBuilder<R>) => run(statement).rows as R[],
    changes: async (statement) => run(statement).changes,
  };
  const withTurn = async <T>(work: () => Promise<T>): Promise<T> => {
    const waiting = turns.take();
    if (waiting) await waiting;
    try {
      return await work();
    } finally {
      turns.give();
    }
  };
  return {
    rows: (statement) => withTurn(() => inTurn.rows(statement)),
    changes: (statement) => withTurn(() => inTurn.changes(statement)),
    transaction: (work) =>
      withTurn(async () => {
        // Immediate: take the write lock now rather than fail to upgrade a read lock later.
        connection.prepare("begin immediate").run([]);
        try {
          const result = await work(inTurn);
          connection.prepare("commit").run([]);
          return result;
        } catch (error) {
          // A failed commit may have ended the transaction already.
          if (connection.inTransaction) connection.prepare("rollback").run([]);
          throw error;
        }
      }),
  };
}
