import { sql } from "kysely";
import type { Db } from "../db/database.js";
import { relaxedCommit } from "../db/postgres-database.js";
import type { WindowCounter } from "./window-counter.js";

/** Below this limit a request a second or so costs little: places are claimed one by one. */
const SLICED_FROM_LIMIT = 1_000;

/** The places a process claims at a time: one, or a hundredth of a high limit (at most 1,000). */
export function placesPerClaim(limit: number): number {
  if (limit < SLICED_FROM_LIMIT) return 1;
  return Math.min(1_000, Math.floor(limit / 100));
}

interface Claimed {
  windowStart: number;
  /** The next place to hand out, and the last one claimed. */
  next: number;
  last: number;
}

/**
 * Windows counted in the database, so that every process sharing a PostgreSQL database
 * enforces one limit together. Under a high limit (1,000 a minute or more) a process claims
 * places in its organization's window a slice at a time and hands them out from memory, so a
 * request rarely waits for the database; the limit still holds across processes, and what a
 * process claimed but did not use by the end of a window (at most a hundredth of the limit)
 * goes unused. Under lower limits every place is claimed on its own, and counts are exact.
 */
export class DatabaseWindowCounter implements WindowCounter {
  private lastPrune = 0;
  private readonly claimed = new Map<string, Claimed>();
  private readonly claiming = new Map<string, Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly windowSeconds: number,
  ) {}

  async increment(organizationId: string, windowStart: number, limit: number): Promise<number> {
    for (;;) {
      const slice = this.claimed.get(organizationId);
      if (slice?.windowStart === windowStart && slice.next <= slice.last) {
        slice.next += 1;
        return slice.next - 1;
      }
      const claiming = this.claiming.get(organizationId);
      if (claiming) {
        await claiming;
        continue;
      }
      const claim = this.claim(organizationId, windowStart, limit).finally(() =>
        this.claiming.delete(organizationId),
      );
      this.claiming.set(organizationId, claim);
      await claim;
    }
  }

  private async claim(organizationId: string, windowStart: number, limit: number) {
    const places = placesPerClaim(limit);
    // A count lost to a crash lets a few more requests through, so it need not wait for the disk.
    const counted =
      this.db.dialect === "postgres"
        ? sql`select ${organizationId}, ${windowStart}, ${places} from ${relaxedCommit} as relaxed`
        : sql`values (${organizationId}, ${windowStart}, ${places})`;
    const [row] = await this.db.rows<{ request_count: number }>(sql`
      insert into rate_limit_windows (organization_id, window_start, request_count)
      ${counted}
      on conflict (organization_id, window_start)
      do update set request_count = rate_limit_windows.request_count + ${places}
      returning request_count`);
    if (!row) throw new Error("rate limit counter returned no row");
    const last = Number(row.request_count);
    this.claimed.set(organizationId, { windowStart, next: last - places + 1, last });
    await this.pruneOldWindows(windowStart);
  }

  private async pruneOldWindows(currentWindow: number): Promise<void> {
    if (currentWindow === this.lastPrune) return;
    this.lastPrune = currentWindow;
    for (const [organizationId, slice] of this.claimed) {
      if (slice.windowStart < currentWindow) this.claimed.delete(organizationId);
    }
    await this.db.changes(
      sql`delete from rate_limit_windows where window_start < ${currentWindow - this.windowSeconds}`,
    );
  }
}
