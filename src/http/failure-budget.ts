import type { FastifyInstance } from "fastify";
import { ServiceError } from "../errors.js";
import type { Clock } from "../util/clock.js";

const WINDOW_MS = 60_000;
/** Addresses remembered at most; past this, windows that have ended are forgotten at once. */
const MAX_ADDRESSES = 100_000;

interface Window {
  startedAt: number;
  failures: number;
}

/**
 * A per-address budget of failed authentications (a wrong, revoked or expired API key, a bad
 * dashboard sign-in token: every 401) per minute. An address that spent it gets a 429 for the
 * rest of the minute before anything is checked, so guessing keys or tokens costs the guesser
 * a minute per `limit` tries. Requests that authenticate pay one map lookup and are never
 * counted. Windows are kept in this process: N processes allow N × `limit` a minute.
 */
export function limitFailedAuthentications(
  app: FastifyInstance,
  limit: number,
  clock: Clock,
): void {
  if (limit <= 0) return;
  const windows = new Map<string, Window>();
  const current = (address: string, now: number): Window | undefined => {
    const window = windows.get(address);
    if (window && now - window.startedAt < WINDOW_MS) return window;
    if (window) windows.delete(address);
    return undefined;
  };
  app.addHook("onRequest", (request, _reply, done) => {
    const now = clock.now();
    const window = current(request.ip, now);
    if (!window || window.failures < limit) {
      done();
      return;
    }
    const retryAfter = Math.ceil((window.startedAt + WINDOW_MS - now) / 1000);
    done(
      new ServiceError(
        "rate_limited",
        `Too many failed authentications from this address (${limit} a minute); retry in ${retryAfter} s.`,
        { code: "too_many_failed_authentications", headers: { "retry-after": String(retryAfter) } },
      ),
    );
  });
  app.addHook("onResponse", (request, reply, done) => {
    if (reply.statusCode !== 401) {
      done();
      return;
    }
    const now = clock.now();
    const window = current(request.ip, now);
    if (window) window.failures++;
    else {
      if (windows.size >= MAX_ADDRESSES) forgetEnded(windows, now);
      windows.set(request.ip, { startedAt: now, failures: 1 });
    }
    done();
  });
}

function forgetEnded(windows: Map<string, Window>, now: number): void {
  for (const [address, window] of windows) {
    if (now - window.startedAt >= WINDOW_MS) windows.delete(address);
  }
  // Every window still running: the oldest go, so memory stays bounded under a flood.
  for (const address of windows.keys()) {
    if (windows.size < MAX_ADDRESSES) break;
    windows.delete(address);
  }
}
