import { ServiceError } from "../errors.js";
import { type Clock, unixSeconds } from "../util/clock.js";
import type { WindowCounter } from "./window-counter.js";

export const RATE_LIMIT_WINDOW_SECONDS = 60;

export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Unix seconds when the current window ends. */
  resetAt: number;
}

/** Requests per minute per organization, in fixed one-minute windows. */
export class RateLimiter {
  constructor(
    private readonly counter: WindowCounter,
    private readonly clock: Clock,
    private readonly perMinute: number,
  ) {}

  /** Counts one request; throws `rate_limited` (with the headers to send) once over the limit. */
  async hit(organizationId: string): Promise<RateLimitState> {
    const now = unixSeconds(this.clock);
    const windowStart = now - (now % RATE_LIMIT_WINDOW_SECONDS);
    const count = await this.counter.increment(organizationId, windowStart, this.perMinute);
    const state: RateLimitState = {
      limit: this.perMinute,
      remaining: Math.max(0, this.perMinute - count),
      resetAt: windowStart + RATE_LIMIT_WINDOW_SECONDS,
    };
    if (count > this.perMinute) {
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
}

export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    "x-ratelimit-limit": String(state.limit),
    "x-ratelimit-remaining": String(state.remaining),
    "x-ratelimit-reset": String(state.resetAt),
  };
}
