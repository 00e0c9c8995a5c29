import type { Kysely, RawBuilder, Transaction } from "kysely";
import type { Database } from "./schema.js";
import type { StatementDatabase, Statements } from "./statements.js";

/** Statements through Kysely's own executor: the PostgreSQL path, where the pool does the work. */
export function kyselyStatements(db: Kysely<Database>): StatementDatabase {
  return {
    ...statementsOn(db),
    transaction: (work) => db.transaction().execute((tx) => work(statementsOn(tx))),
  };
}

function statementsOn(executor: Kysely<Database> | Transaction<Database>): Statements {
  return {
    rows: async <R>(statement: RawBuilder<R>) => (await statement.execute(executor)).rows,
    changes: async (statement) => Number((await statement.execute(executor)).numAffectedRows ?? 0n),
  };
}
