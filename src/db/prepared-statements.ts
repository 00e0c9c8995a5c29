import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from "kysely";
import type pg from "pg";

/** Statement texts named at most: a bound on what each connection keeps prepared on the server. */
const MAX_NAMED_TEXTS = 200;
/** Runs of a text before it is named, so that one-off texts (a list of varying length) stay unnamed. */
const RUNS_BEFORE_NAMING = 2;
/** Texts counted towards naming at most; the count starts over past it. */
const MAX_COUNTED_TEXTS = 10_000;
/**
 * What PostgreSQL answers when a prepared statement's result columns changed under it (a
 * migration added a column to a table it selects `*` from, while this version still runs).
 */
const STALE_RESULT_TYPE = "0A000";

/**
 * Names for statement texts that repeat. PostgreSQL parses and plans an unnamed statement on
 * every run; planning the settlement statement (one `with` of four parts) took ~330 µs of its
 * ~450 µs, a named one is planned once per connection. Each name stands for one text for the
 * life of the process, as node-postgres requires.
 */
export class StatementNames {
  private readonly names = new Map<string, string>();
  private readonly runs = new Map<string, number>();
  /** Texts whose statement went stale: they run unnamed from then on (their name is not reused). */
  private readonly unnamed = new Set<string>();

  nameFor(text: string): string | undefined {
    if (this.unnamed.has(text)) return undefined;
    const name = this.names.get(text);
    if (name !== undefined || this.names.size >= MAX_NAMED_TEXTS) return name;
    const runs = (this.runs.get(text) ?? 0) + 1;
    if (runs <= RUNS_BEFORE_NAMING) {
      if (this.runs.size >= MAX_COUNTED_TEXTS) this.runs.clear();
      this.runs.set(text, runs);
      return undefined;
    }
    this.runs.delete(text);
    const named = `sibyl_${this.names.size + 1}`;
    this.names.set(text, named);
    return named;
  }

  /** Runs `text` unnamed from now on. */
  unname(text: string): void {
    this.unnamed.add(text);
  }
}

/** The pool as Kysely sees it, with repeated statements run as named (prepared) ones. */
export function preparingPool(pool: pg.Pool, names = new StatementNames()): PostgresPool {
  const clients = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  return {
    async connect() {
      const client = await pool.connect();
      let preparing = clients.get(client);
      if (!preparing) {
        preparing = preparingClient(client, names);
        clients.set(client, preparing);
      }
      return preparing;
    },
    end: () => pool.end(),
  };
}

function preparingClient(client: pg.PoolClient, names: StatementNames): PostgresPoolClient {
  function query<R>(
    sql: string,
    parameters: ReadonlyArray<unknown>,
  ): Promise<PostgresQueryResult<R>>;
  function query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  function query<R>(
    sqlOrCursor: string | PostgresCursor<R>,
    parameters: ReadonlyArray<unknown> = [],
  ): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    if (typeof sqlOrCursor !== "string") {
      // Kysely streams through a cursor, which node-postgres submits as it is.
      return client.query(sqlOrCursor as unknown as pg.Submittable) as unknown as PostgresCursor<R>;
    }
    const text = sqlOrCursor;
    const values = [...parameters];
    const name = names.nameFor(text);
    if (name === undefined) return run<R>(client, { text, values });
    return run<R>(client, { name, text, values }).catch((error: unknown) => {
      if ((error as { code?: unknown }).code !== STALE_RESULT_TYPE) throw error;
      // Outside a transaction the same text runs again, unnamed; inside one the transaction has
      // failed already, and the caller's next try runs unnamed.
      names.unname(text);
      if (client.getTransactionStatus() !== "I") throw error;
      return run<R>(client, { text, values });
    });
  }
  return { query, release: () => client.release() };
}

function run<R>(client: pg.PoolClient, config: pg.QueryConfig): Promise<PostgresQueryResult<R>> {
  return client.query(config) as unknown as Promise<PostgresQueryResult<R>>;
}
