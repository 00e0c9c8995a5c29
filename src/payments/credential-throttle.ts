import type { PaymentsConfig } from "../config/resolved.js";
import { ServiceError } from "../errors.js";
import type { WindowCounter } from "../limits/window-counter.js";
import { type Clock, unixSeconds } from "../util/clock.js";

export const CREDENTIAL_WINDOW_SECONDS = 60;

/** How many payment credentials may be presented a minute: per client address, per challenge. */
export type CredentialLimits = PaymentsConfig["limits"];

/**
 * Bounds what bogus credentials cost: each presentation may ask the chain node or the card
 * processor, so an address, and a challenge, get a fixed number of presentations a minute
 * before anyone is asked. Counted where the API's rate limit is (in the database when processes
 * share PostgreSQL), in windows of their own keys.
 */
export class CredentialThrottle {
  constructor(
    private readonly counter: WindowCounter,
    private readonly clock: Clock,
    private readonly limits: CredentialLimits,
  ) {}

  /** Counts one credential from `address`; throws a 429 once over the limit. */
  admitAddress(address: string): Promise<void> {
    return this.admit(
      `mpp-address:${address}`,
      this.limits.per_address_per_minute,
      (limit, retryAfter) =>
        `Too many payment credentials from this address (${limit} a minute); retry in ${retryAfter} s.`,
    );
  }

  /** Counts one credential for the challenge; throws a 429 once over the limit. */
  admitChallenge(challengeId: string): Promise<void> {
    return this.admit(
      `mpp-challenge:${challengeId}`,
      this.limits.per_challenge_per_minute,
      (limit, retryAfter) =>
        `This challenge's credential was presented too often (${limit} a minute); present it again in ${retryAfter} s.`,
    );
  }

  private async admit(
    key: string,
    limit: number,
    message: (limit: number, retryAfter: number) => string,
  ): Promise<void> {
    const now = unixSeconds(this.clock);
    const windowStart = now - (now % CREDENTIAL_WINDOW_SECONDS);
    const place = await this.counter.increment(key, windowStart, limit);
    if (place <= limit) return;
    const retryAfter = Math.max(1, windowStart + CREDENTIAL_WINDOW_SECONDS - now);
    throw new ServiceError("rate_limited", message(limit, retryAfter), {
      code: "payment_rate_limited",
      headers: { "retry-after": String(retryAfter) },
    });
  }
}
