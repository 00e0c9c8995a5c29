import { retryDelayMs, waitOrAbort } from "./backoff.js";
import { type AttemptFailure, abortedError } from "./failures.js";
import type { RetryPolicy } from "./options.js";
import type { AttemptOutcome, Target } from "./transport.js";

/**
 * Sends the request until a server accepts it: retries with backoff on one deployment, then moves
 * to the next once its attempts are spent, or straight away after a failure the same server would
 * repeat but another may not (a reply in the wrong format). Failures that no other try can fix
 * (4xx, timeouts after the request was sent, cancellation) end the call at once.
 */
export async function sendWithRetries<Reply>(
  targets: readonly Target[],
  policy: RetryPolicy,
  signal: AbortSignal | undefined,
  attempt: (target: Target) => Promise<AttemptOutcome<Reply>>,
): Promise<Reply> {
  const attempts = Math.max(1, Math.floor(policy.attempts));
  let lastFailure: AttemptFailure | null = null;
  for (const target of targets) {
    for (let tries = 0; tries < attempts; tries += 1) {
      if (tries > 0 && lastFailure) {
        await waitOrAbort(retryDelayMs(tries - 1, policy, lastFailure.retryAfterMs), signal);
      }
      if (signal?.aborted) throw abortedError();
      const outcome = await attempt(target);
      if (outcome.ok) return outcome.reply;
      if (!outcome.failure.fallback) throw outcome.failure.error;
      lastFailure = outcome.failure;
      if (!outcome.failure.retryable) break;
    }
  }
  if (!lastFailure) throw new Error("no deployment configured");
  throw lastFailure.error;
}
