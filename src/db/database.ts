import type { Kysely, RawBuilder } from "kysely";
import type { PlainStatement } from "./plain-statement.js";
import type { Database } from "./schema.js";

export type DialectName = "sqlite" | "postgres";

/**
 * Kysely's query builder without its own ways to open transactions or connections: those go
 * through `Db.transaction`, which is what lets transactions nest.
 */
export type QueryBuilder = Omit<
  Kysely<Database>,
  "transaction" | "startTransaction" | "connection" | "destroy"
>;

/**
 * Runs hand-written SQL (`sql` templates compiled for the dialect, or plain statements) without
 * the query builder's machinery. The statements every request runs (key lookup, rate limit,
 * credit holds and settlements) use this: on SQLite it cuts their cost by more than half.
 */
export interface Statements {
  /** The rows a statement returns: a select, or a write with `returning`. */
  rows<R>(statement: RawBuilder<R> | PlainStatement): Promise<R[]>;
  /** How many rows a write changed. */
  changes(statement: RawBuilder<unknown> | PlainStatement): Promise<number>;
}

/**
 * The one way services reach the database. Outside a transaction every call commits on its own.
 * `transaction(work)` commits `work` whole or not at all; called on a transaction's own scope it
 * runs `work` in a savepoint of that transaction instead. So service calls compose: a service
 * method that takes a `Db` and opens a transaction on it joins whatever transaction its caller
 * passed in, sees that transaction's uncommitted rows, and is undone with it.
 *
 * Work inside a transaction must only use the database: the transaction holds SQLite's one
 * connection (and a pooled PostgreSQL connection) until it ends.
 */
export interface Db extends Statements {
  readonly dialect: DialectName;
  /** Whether this scope is inside a transaction. */
  readonly inTransaction: boolean;
  /** The query builder for this scope: the open transaction, or autocommit outside one. */
  readonly query: QueryBuilder;
  transaction<T>(work: (tx: Db) => Promise<T>): Promise<T>;
}
