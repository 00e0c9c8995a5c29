import { type Kysely, type RawBuilder, sql, type Transaction } from "kysely";
import type { Db } from "./database.js";
import { isPlain, numberedQuery, type PlainStatement } from "./plain-statement.js";
import { savepointRunner } from "./savepoints.js";
import type { Database } from "./schema.js";

/** The data-access layer on PostgreSQL: statements through Kysely's executor and the pool. */
export function postgresDatabase(kysely: Kysely<Database>): Db {
  return {
    dialect: "postgres",
    inTransaction: false,
    query: kysely,
    rows: async (statement) => (await execute(statement, kysely)).rows,
    changes: async (statement) => Number((await execute(statement, kysely)).numAffectedRows ?? 0n),
    transaction: (work) => kysely.transaction().execute((trx) => work(transactionScope(trx, 1))),
  };
}

function execute<R>(statement: RawBuilder<R> | PlainStatement, on: Kysely<Database>) {
  return isPlain(statement) ? on.executeQuery<R>(numberedQuery(statement)) : statement.execute(on);
}

function transactionScope(trx: Transaction<Database>, depth: number): Db {
  const nested = savepointRunner(depth, (statement) => sql.raw(statement).execute(trx));
  return {
    dialect: "postgres",
    inTransaction: true,
    query: trx,
    rows: async (statement) => (await execute(statement, trx)).rows,
    changes: async (statement) => Number((await execute(statement, trx)).numAffectedRows ?? 0n),
    transaction: (work) => nested(() => work(transactionScope(trx, depth + 1))),
  };
}

/**
 * A subquery that lets the transaction of the statement evaluating it commit without waiting for
 * its WAL to reach the disk (`synchronous_commit = off` for that transaction alone). A crash can
 * then lose the last fraction of a second of such commits, all of them after every durable one:
 * use it only in a statement run on its own, for writes whose loss is safe (a hold that would
 * otherwise be released, a rate-limit count), never for charges or credits.
 */
export const relaxedCommit = sql`(select set_config('synchronous_commit', 'off', true))`;
