import type { Clock } from "../../src/util/clock.js";

/** A clock that only moves when told to, for time-dependent rules such as stale holds. */
export class ManualClock implements Clock {
  constructor(private current = Date.UTC(2025, 0, 1)) {}

  now(): number {
    return this.current;
  }

  advanceSeconds(seconds: number): void {
    this.current += seconds * 1000;
  }
}
