import { setTimeout as sleep } from "node:timers/promises";
import { abortedError } from "./failures.js";
import type { RetryPolicy } from "./options.js";

/**
 * Delay before retry number `retry` (0-based): the server's `retry-after` when given, else full
 * jitter (uniform in [0, base·2^retry]) so that clients failing together do not retry together.
 */
export function retryDelayMs(
  retry: number,
  policy: RetryPolicy,
  retryAfterMs: number | null,
): number {
  if (retryAfterMs !== null) return Math.min(retryAfterMs, policy.maxDelayMs);
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return Math.random() * ceiling;
}

/** `retry-after` in seconds, as model servers and gateways send it. */
export function parseRetryAfter(header: string | string[] | undefined): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === "") return null;
  const seconds = Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1_000 : null;
}

export async function waitOrAbort(ms: number, signal: AbortSignal | undefined): Promise<void> {
  try {
    await sleep(ms, undefined, { signal });
  } catch {
    throw abortedError();
  }
}
