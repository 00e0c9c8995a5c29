import { sql } from "kysely";
import type { Statements } from "../db/statements.js";
import { ServiceError } from "../errors.js";
import { type Clock, unixSeconds } from "../util/clock.js";

const WINDOW_SECONDS = 60;

export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Unix seconds when the current window ends. */
  resetAt: number;
}

/**
 * Requests per minute per organization, counted in the database (a fixed one-minute window),
 * so every process sharing a PostgreSQL database enforces one limit together.
 */
export class RateLimiter {
  private lastPrune = 0;

  constructor(
    private readonly statements: Statements,
    private readonly clock: Clock,
    private readonly perMinute: number,
  ) {}

  /** Counts one request; throws `rate_limited` (with the headers to send) once over the limit. */
  async hit(organizationId: string): Promise<RateLimitState> {
    const now = unixSeconds(this.clock);
    const windowStart = now - (now % WINDOW_SECONDS);
    // Runs on every request: a hand-written statement skips the query builder's CPU cost.
    const [row] = await this.statements.rows<{ request_count: number }>(sql`
      insert into rate_limit_windows (organization_id, window_start, request_count)
      values (${organizationId}, ${windowStart}, 1)
      on conflict (organization_id, window_start)
      do update set request_count = rate_limit_windows.request_count + 1
      returning request_count`);
    if (!row) throw new Error("rate limit counter returned no row");
    await this.pruneOldWindows(windowStart);
    const state: RateLimitState = {
      limit: this.perMinute,
      remaining: Math.max(0, this.perMinute - row.request_count),
      resetAt: windowStart + WINDOW_SECONDS,
    };
    if (row.request_count > this.perMinute) {
      const retryAfter = Math.max(1, state.resetAt - now);
      throw new ServiceError(
        "rate_limited",
        `Rate limit of ${this.perMinute} requests per minute reached; retry in ${retryAfter} s.`,
        {
          code: "rate_limit_exceeded",
          headers: { "retry-after": String(retryAfter), ...rateLimitHeaders(state) },
        },
      );
    }
    return state;
  }

  private async pruneOldWindows(currentWindow: number): Promise<void> {
    if (currentWindow === this.lastPrune) return;
    this.lastPrune = currentWindow;
    await this.statements.changes(
      sql`delete from rate_limit_windows where window_start < ${currentWindow - WINDOW_SECONDS}`,
    );
  }
}

export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    "x-ratelimit-limit": String(state.limit),
    "x-ratelimit-remaining": String(state.remaining),
    "x-ratelimit-reset": String(state.resetAt),
  };
}
