import { ServiceError } from "../errors.js";

/** Seconds a client is asked to wait before retrying while the database is away. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/** Socket failures on the way to the database server. */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
]);

/**
 * SQLSTATEs that say the server cannot serve now, not that the statement is wrong: class 08
 * (connection exception), 57P01–57P03 (terminated by an administrator, crash shutdown, cannot
 * connect now), 53300 (too many connections) and 57014 (cancelled, e.g. by statement_timeout).
 */
const UNAVAILABLE_STATE = /^(08...|57P0[123]|53300|57014)$/;

/** What node-postgres says when a connection dies or cannot be had in time. */
const DRIVER_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended unexpectedly/;

/** Whether `error` means the database cannot be reached now (as opposed to a bug or bad input). */
export function isDatabaseOutage(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error instanceof AggregateError && error.errors.some(isDatabaseOutage)) return true;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && (NETWORK_CODES.has(code) || UNAVAILABLE_STATE.test(code))) {
    return true;
  }
  return DRIVER_MESSAGES.test(error.message);
}

/**
 * SQLSTATEs of a transaction that lost a race with another (40001 serialization failure, 40P01
 * deadlock victim, 55P03 lock not available), and SQLite's busy or locked database: the same
 * work run again can succeed.
 */
const CONTENTION_STATE = /^(40001|40P01|55P03|SQLITE_BUSY\w*|SQLITE_LOCKED\w*)$/;

function isDatabaseContention(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" && CONTENTION_STATE.test(code);
}

/**
 * Whether work that failed with `error` may succeed when run again: the database was away, or
 * turned the work away because of other work at the time. Neither says anything about the work.
 */
export function isTransientDatabaseFailure(error: unknown): boolean {
  return isDatabaseOutage(error) || isDatabaseContention(error);
}

const CONTENTION_TRIES = 5;

/**
 * Runs `transaction` again when the database rolled it back for contention (a deadlock victim,
 * a serialization failure): it was undone whole, so running it again is safe, and PostgreSQL
 * asks callers to do so. Each wait is longer and jittered so that the two sides part.
 */
export async function retryOnContention<T>(transaction: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (error) {
      if (attempt >= CONTENTION_TRIES || !isDatabaseContention(error)) throw error;
      const wait = 5 * 2 ** attempt * (0.5 + Math.random());
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

/** The 503 a request gets while the database is away; the client is told when to retry. */
export function databaseUnavailable(): ServiceError {
  return new ServiceError(
    "unavailable",
    "The database is unavailable right now; retry the request shortly.",
    {
      code: "database_unavailable",
      headers: { "retry-after": String(DATABASE_RETRY_AFTER_SECONDS) },
    },
  );
}

/** The 503 a request gets when the database turned it away for conflicting work (a deadlock). */
export function databaseBusy(): ServiceError {
  return new ServiceError(
    "unavailable",
    "The database turned the request away because of conflicting work; retry it.",
    { code: "database_busy", headers: { "retry-after": "1" } },
  );
}

/**
 * `error`, or the 503 that stands for it when the database was away or busy: neither says
 * anything about the request, and the same request can succeed when retried.
 */
export function asDatabaseOutage(error: Error): Error {
  if (isDatabaseOutage(error)) return databaseUnavailable();
  return isDatabaseContention(error) ? databaseBusy() : error;
}
