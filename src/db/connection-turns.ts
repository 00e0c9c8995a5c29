/**
 * Hands SQLite's one connection to its users one at a time, in arrival order. Kysely's queries,
 * the grouped transactions (sqlite-database.ts) and the checkpointer's log restarts
 * (wal-checkpointer.ts) take turns through the same instance, so a transaction is never
 * interleaved with another user's statements.
 */
export class ConnectionTurns {
  private busy = false;
  private readonly waiters: (() => void)[] = [];

  /** Resolves once the connection is the caller's; undefined when it was free at once. */
  take(): Promise<void> | undefined {
    if (!this.busy) {
      this.busy = true;
      return undefined;
    }
    return new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  /** Passes the connection to the next waiter (which stays busy) or frees it. */
  give(): void {
    const next = this.waiters.shift();
    if (next) next();
    else this.busy = false;
  }
}
