import { sql } from "kysely";
import type { Db } from "../db/database.js";
import { relaxedCommit } from "../db/postgres-database.js";
import type { WindowCounter } from "./window-counter.js";

/**
 * Windows counted in the database, so that every process sharing a PostgreSQL database
 * enforces one limit together.
 */
export class DatabaseWindowCounter implements WindowCounter {
  private lastPrune = 0;

  constructor(
    private readonly db: Db,
    private readonly windowSeconds: number,
  ) {}

  async increment(organizationId: string, windowStart: number): Promise<number> {
    // Runs on every request: a hand-written statement skips the query builder's CPU cost. A
    // count lost to a crash lets one more request through, so it need not wait for the disk.
    const counted =
      this.db.dialect === "postgres"
        ? sql`select ${organizationId}, ${windowStart}, 1 from ${relaxedCommit} as relaxed`
        : sql`values (${organizationId}, ${windowStart}, 1)`;
    const [row] = await this.db.rows<{ request_count: number }>(sql`
      insert into rate_limit_windows (organization_id, window_start, request_count)
      ${counted}
      on conflict (organization_id, window_start)
      do update set request_count = rate_limit_windows.request_count + 1
      returning request_count`);
    if (!row) throw new Error("rate limit counter returned no row");
    await this.pruneOldWindows(windowStart);
    return row.request_count;
  }

  private async pruneOldWindows(currentWindow: number): Promise<void> {
    if (currentWindow === this.lastPrune) return;
    this.lastPrune = currentWindow;
    await this.db.changes(
      sql`delete from rate_limit_windows where window_start < ${currentWindow - this.windowSeconds}`,
    );
  }
}
