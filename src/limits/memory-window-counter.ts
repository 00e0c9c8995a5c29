import type { WindowCounter } from "./window-counter.js";

/**
 * Windows counted in this process. On SQLite one process serves the API, and a database write
 * per request was the largest single cost of a completion; a restart forgets the current
 * window, which at worst lets one more minute's worth of requests through.
 */
export class MemoryWindowCounter implements WindowCounter {
  private windowStart = 0;
  private counts = new Map<string, number>();

  async increment(organizationId: string, windowStart: number): Promise<number> {
    if (windowStart !== this.windowStart) {
      // Only the current window is ever asked about: older counts can go all at once.
      this.windowStart = windowStart;
      this.counts = new Map();
    }
    const count = (this.counts.get(organizationId) ?? 0) + 1;
    this.counts.set(organizationId, count);
    return count;
  }
}
