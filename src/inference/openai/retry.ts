import type { Dispatcher } from "undici";
import type { InferenceRequest } from "../provider.js";
import { retryDelayMs, waitOrAbort } from "./backoff.js";
import { type AttemptFailure, abortedError } from "./failures.js";
import type { RetryPolicy } from "./options.js";
import type { Target, Transport } from "./transport.js";

/**
 * Sends the request until a server accepts it: retries with backoff on one deployment, then moves
 * to the next once its attempts are spent, or straight away after a failure the same server would
 * repeat but another may not (a reply in the wrong format). Failures that no other try can fix
 * (4xx, timeouts after the request was sent, cancellation) end the call at once.
 */
export async function sendWithRetries(
  transport: Transport,
  targets: readonly Target[],
  policy: RetryPolicy,
  request: InferenceRequest,
  stream: boolean,
): Promise<Dispatcher.ResponseData> {
  const attempts = Math.max(1, Math.floor(policy.attempts));
  let lastFailure: AttemptFailure | null = null;
  for (const target of targets) {
    for (let attempt = 0; attempt < attempts; attempt += 1) {
      if (attempt > 0 && lastFailure) {
        await waitOrAbort(
          retryDelayMs(attempt - 1, policy, lastFailure.retryAfterMs),
          request.signal,
        );
      }
      if (request.signal?.aborted) throw abortedError();
      const outcome = await transport.attempt(target, request, stream);
      if (outcome.ok) return outcome.response;
      if (!outcome.failure.fallback) throw outcome.failure.error;
      lastFailure = outcome.failure;
      if (!outcome.failure.retryable) break;
    }
  }
  if (!lastFailure) throw new Error("no deployment configured");
  throw lastFailure.error;
}
