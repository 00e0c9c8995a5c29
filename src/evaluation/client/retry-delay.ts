import type { IncomingHttpHeaders } from "node:http";

const BASE_MS = 500;
const MAX_BACKOFF_MS = 30_000;
/** A server asking for a longer pause than this is answered after this long anyway. */
const MAX_RETRY_AFTER_MS = 600_000;

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** What `retry-after-ms` or `Retry-After` (seconds or an HTTP date) asks for, if anything. */
function askedDelayMs(headers: IncomingHttpHeaders): number | null {
  const ms = Number(header(headers, "retry-after-ms"));
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const after = header(headers, "retry-after");
  if (after === undefined || after.trim() === "") return null;
  const seconds = Number(after);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(after);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

/** The pause before retry number `attempt` (from 1): as asked, else exponential with jitter. */
export function retryDelayMs(attempt: number, headers: IncomingHttpHeaders | undefined): number {
  const asked = headers === undefined ? null : askedDelayMs(headers);
  if (asked !== null) return Math.min(asked, MAX_RETRY_AFTER_MS);
  const backoff = Math.min(MAX_BACKOFF_MS, BASE_MS * 2 ** (attempt - 1));
  return backoff / 2 + Math.random() * (backoff / 2);
}
