import type { RawBuilder } from "kysely";

/**
 * Runs hand-written SQL (`sql` templates, compiled for the dialect) without the query builder's
 * machinery. The statements every request runs (key lookup, rate limit, credit holds and
 * settlements) go through here: on SQLite it cuts their cost by more than half.
 */
export interface Statements {
  /** The rows a statement returns: a select, or a write with `returning`. */
  rows<R>(statement: RawBuilder<R>): Promise<R[]>;
  /** How many rows a write changed. */
  changes(statement: RawBuilder<unknown>): Promise<number>;
}

export interface StatementDatabase extends Statements {
  /** Runs `work` in one write transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Statements) => Promise<T>): Promise<T>;
}
