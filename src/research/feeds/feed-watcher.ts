import { Agent, type Dispatcher, interceptors } from "undici";
import type { NewsFeedConfig } from "../../config/resolved.js";
import type { Db } from "../../db/database.js";
import type { Clock } from "../../util/clock.js";
import { ArchiveStore } from "../archive/archive-store.js";
import { type FeedValidators, fetchFeed } from "./feed-fetch.js";

export interface WatchedFeed {
  url: string;
  /** Time from the end of one poll to the start of the next. */
  everyMs: number;
}

/** The part of a pino logger the watcher uses. */
export interface FeedLog {
  warn(details: object, message: string): void;
}

export interface FeedWatcherOptions {
  feeds: readonly WatchedFeed[];
  store: ArchiveStore;
  clock: Clock;
  log: FeedLog;
  /** Whole-request limit per poll (default 30 s). */
  timeoutMs?: number;
}

export interface PollOutcome {
  url: string;
  status: "stored" | "not-modified" | "failed";
  /** Articles new to the archive (0 unless stored). */
  inserted: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const MAX_REDIRECTIONS = 5;

interface FeedState {
  feed: WatchedFeed;
  validators: FeedValidators;
  timer: NodeJS.Timeout | null;
  /** The poll under way, if any: a feed never has two at once. */
  running: Promise<PollOutcome> | null;
}

/**
 * Polls RSS/Atom/RDF feeds into the news archive. Each item is stored once, with `first_seen_at`
 * the time of the poll that first saw it: that is what later backtests may trust. Feeds are
 * independent: each has its own schedule, and one that fails (unreachable, not a feed) is logged
 * and tried again at its next turn.
 */
export class FeedWatcher {
  private readonly states: FeedState[];
  private readonly dispatcher: Dispatcher;
  private readonly stopping = new AbortController();
  private started = false;

  constructor(private readonly options: FeedWatcherOptions) {
    this.states = options.feeds.map((feed) => ({
      feed,
      validators: { etag: null, lastModified: null },
      timer: null,
      running: null,
    }));
    this.dispatcher = new Agent().compose(
      interceptors.redirect({ maxRedirections: MAX_REDIRECTIONS }),
    );
  }

  /** Polls every feed now, then each on its own schedule. */
  start(): void {
    if (this.started || this.stopping.signal.aborted) return;
    this.started = true;
    for (const state of this.states) this.schedule(state, 0);
  }

  /** Stops the schedules, cancels polls under way and waits for them to end. */
  async stop(): Promise<void> {
    if (this.stopping.signal.aborted) return;
    this.stopping.abort();
    for (const state of this.states) {
      if (state.timer) clearTimeout(state.timer);
      state.timer = null;
    }
    await Promise.all(this.states.map((state) => state.running));
    await this.dispatcher.close();
  }

  /** Polls every feed once now (a feed already being polled is awaited, not polled again). */
  pollAll(): Promise<PollOutcome[]> {
    return Promise.all(this.states.map((state) => this.poll(state)));
  }

  private schedule(state: FeedState, delayMs: number): void {
    if (this.stopping.signal.aborted) return;
    state.timer = setTimeout(() => {
      state.timer = null;
      void this.poll(state).then(() => this.schedule(state, state.feed.everyMs));
    }, delayMs);
    state.timer.unref();
  }

  private poll(state: FeedState): Promise<PollOutcome> {
    state.running ??= this.pollOnce(state).finally(() => {
      state.running = null;
    });
    return state.running;
  }

  private async pollOnce(state: FeedState): Promise<PollOutcome> {
    const { url } = state.feed;
    if (this.stopping.signal.aborted) return { url, status: "failed", inserted: 0 };
    try {
      const response = await fetchFeed(url, state.validators, {
        dispatcher: this.dispatcher,
        timeoutMs: this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        signal: this.stopping.signal,
      });
      if (response.status === "not-modified") return { url, status: "not-modified", inserted: 0 };
      // The feed parser is loaded by the first poll: processes without feeds never hold it.
      const { feedArticles } = await import("./feed-articles.js");
      const articles = feedArticles(response.body, url, this.options.clock.now());
      const { inserted } = await this.options.store.insertMany(articles);
      // Remembered only once stored: a failed store is retried in full next time.
      state.validators = response.validators;
      return { url, status: "stored", inserted };
    } catch (error) {
      if (!this.stopping.signal.aborted) {
        this.options.log.warn(
          { feed: url, err: { message: (error as Error).message } },
          "news feed poll failed",
        );
      }
      return { url, status: "failed", inserted: 0 };
    }
  }
}

/** A watcher over the configured feeds, started; null when none are configured. */
export function startFeedWatcher(
  feeds: readonly NewsFeedConfig[],
  db: Db,
  clock: Clock,
  log: FeedLog,
): FeedWatcher | null {
  if (feeds.length === 0) return null;
  const watcher = new FeedWatcher({
    feeds: feeds.map((feed) => ({ url: feed.url, everyMs: feed.every_minutes * 60_000 })),
    store: new ArchiveStore(db, clock),
    clock,
    log,
  });
  watcher.start();
  return watcher;
}

/** Warnings as JSON lines, for a process without a pino logger (`sibyl worker`). */
export function jsonLinesFeedLog(write: (line: string) => void): FeedLog {
  return {
    warn: (details, message) =>
      write(JSON.stringify({ level: "warn", time: Date.now(), msg: message, ...details })),
  };
}
