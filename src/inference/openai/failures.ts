import { UpstreamError } from "../errors.js";
import { errorBodyMessage } from "./upstream-message.js";

/** Why one attempt failed, and whether another attempt (or deployment) may succeed. */
export interface AttemptFailure {
  error: UpstreamError;
  retryable: boolean;
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
    return { error: new UpstreamError("rejected", message, status), retryable: true, retryAfterMs };
  }
  if (status >= 400 && status < 500) {
    return {
      error: new UpstreamError("rejected", message, status),
      retryable: false,
      retryAfterMs,
    };
  }
  return {
    error: new UpstreamError("unavailable", `model server error: ${message}`, status),
    retryable: status >= 500,
    retryAfterMs,
  };
}

/** A thrown transport error, before the response status arrived. */
export function requestFailure(error: unknown, signal: AbortSignal | undefined): AttemptFailure {
  const code = errorCode(error);
  return {
    error: transferError(error, signal),
    retryable: !signal?.aborted && code !== null && RETRYABLE_ERROR_CODES.has(code),
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
