import { UpstreamError } from "../errors.js";
import { errorBodyMessage } from "./upstream-message.js";

/** Why one attempt failed, and whether another attempt (or deployment) may succeed. */
export interface AttemptFailure {
  error: UpstreamError;
  /** Another try on the same deployment may succeed. */
  retryable: boolean;
  /** Another deployment may succeed (always so when `retryable`). */
  fallback: boolean;
  /** The server's `retry-after`, when it sent one. */
  retryAfterMs: number | null;
}

/** Connection failures before any response arrived: another try, or deployment, may succeed. */
const RETRYABLE_ERROR_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ETIMEDOUT",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
]);

export function abortedError(): UpstreamError {
  return new UpstreamError("aborted", "request cancelled by the caller");
}

/** An HTTP error status from the server, with its body text. */
export function statusFailure(
  status: number,
  bodyText: string,
  retryAfterMs: number | null,
): AttemptFailure {
  const message = errorBodyMessage(bodyText) ?? `model server answered HTTP ${status}`;
  if (status === 429) {
    const error = new UpstreamError("rejected", message, status);
    return { error, retryable: true, fallback: true, retryAfterMs };
  }
  if (status >= 400 && status < 500) {
    const error = new UpstreamError("rejected", message, status);
    return { error, retryable: false, fallback: false, retryAfterMs };
  }
  const retryable = status >= 500;
  return {
    error: new UpstreamError("unavailable", `model server error: ${message}`, status),
    retryable,
    fallback: retryable,
    retryAfterMs,
  };
}

/**
 * A 2xx reply in a format the request cannot be read in, typically an HTML page from a proxy or
 * a web UI at the configured URL. That server will answer the same way again, so it is not
 * retried, but a fallback deployment is another server and may well serve the model.
 */
export function formatFailure(status: number, mediaType: string, stream: boolean): AttemptFailure {
  const received = mediaType || "no content type";
  const expected = stream ? "an event stream" : "JSON";
  return {
    error: new UpstreamError(
      "unavailable",
      `model server answered with ${received} instead of ${expected}`,
      status,
    ),
    retryable: false,
    fallback: true,
    retryAfterMs: null,
  };
}

/** A thrown transport error, before the response status arrived. */
export function requestFailure(error: unknown, signal: AbortSignal | undefined): AttemptFailure {
  const code = errorCode(error);
  const retryable = !signal?.aborted && code !== null && RETRYABLE_ERROR_CODES.has(code);
  return {
    error: transferError(error, signal),
    retryable,
    fallback: retryable,
    retryAfterMs: null,
  };
}

/** Maps an error while exchanging data with the server to the caller-facing error. */
export function transferError(error: unknown, signal: AbortSignal | undefined): UpstreamError {
  if (signal?.aborted) return abortedError();
  if (error instanceof UpstreamError) return error;
  const code = errorCode(error);
  if (code === "UND_ERR_HEADERS_TIMEOUT") {
    return new UpstreamError("timeout", "model server sent no response headers in time");
  }
  if (code === "UND_ERR_BODY_TIMEOUT") {
    return new UpstreamError("timeout", "model server stopped sending the response");
  }
  if (code === "UND_ERR_CONNECT_TIMEOUT") {
    return new UpstreamError("timeout", "timed out connecting to the model server");
  }
  const detail = code ?? (error instanceof Error ? error.message : String(error));
  return new UpstreamError("unavailable", `connection to the model server failed (${detail})`);
}

function errorCode(error: unknown): string | null {
  for (let current = error; current instanceof Error; current = current.cause) {
    const code = (current as NodeJS.ErrnoException).code;
    if (typeof code === "string") return code;
  }
  return null;
}
