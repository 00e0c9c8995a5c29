import { createHistogram, performance, type RecordableHistogram } from "node:perf_hooks";
import { Gauge, type Registry } from "prom-client";

/** How often the loop is sampled, in milliseconds: fine enough to see a 50 ms stall. */
const RESOLUTION_MS = 10;

const QUANTILES = [0.5, 0.9, 0.99] as const;

const NANOSECONDS_PER_MILLISECOND = 1e6;
const NANOSECONDS_PER_SECOND = 1e9;

/**
 * How late the event loop ran a 10 ms tick, since the previous scrape. Everything here shares
 * one thread, so a request that computes for long (counting a huge prompt, building a huge
 * reply) delays every other request; this is where it shows.
 *
 * The ticks are timed here rather than by `monitorEventLoopDelay`, whose reset at each scrape
 * also forgets when it last ticked and so drops a stall that starts right after a scrape.
 */
export class EventLoopLag {
  private readonly delays: RecordableHistogram = createHistogram();
  private ticker: NodeJS.Timeout | null = null;

  constructor(registry: Registry) {
    const delays = this.delays;
    // Registered first: a scrape collects metrics in order, and this one reads for both.
    new Gauge({
      name: "sibyl_event_loop_lag_seconds",
      help: "Event-loop delay quantiles since the previous scrape",
      labelNames: ["quantile"] as const,
      registers: [registry],
      collect() {
        // An empty histogram reports its extremes as huge numbers: read it as no delay.
        const sampled = delays.count > 0;
        for (const quantile of QUANTILES) {
          const delay = sampled ? delays.percentile(quantile * 100) : 0;
          this.set({ quantile: String(quantile) }, delay / NANOSECONDS_PER_SECOND);
        }
        max.set(sampled ? delays.max / NANOSECONDS_PER_SECOND : 0);
        delays.reset();
      },
    });
    const max = new Gauge({
      name: "sibyl_event_loop_lag_max_seconds",
      help: "Longest event-loop delay since the previous scrape",
      registers: [registry],
    });
  }

  start(): void {
    if (this.ticker) return;
    let due = performance.now() + RESOLUTION_MS;
    this.ticker = setInterval(() => {
      const now = performance.now();
      // The histogram holds positive integers: nanoseconds late, at least one.
      this.delays.record(Math.max(1, Math.round((now - due) * NANOSECONDS_PER_MILLISECOND)));
      due = now + RESOLUTION_MS;
    }, RESOLUTION_MS);
    // Sampling alone never keeps the process running.
    this.ticker.unref();
  }

  /** Stops the ticks, so a closed server leaves no timer behind. */
  stop(): void {
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = null;
  }
}
