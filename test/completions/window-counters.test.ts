import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DatabaseWindowCounter, placesPerClaim } from "../../src/limits/database-window-counter.js";
import { MemoryWindowCounter } from "../../src/limits/memory-window-counter.js";
import type { WindowCounter } from "../../src/limits/window-counter.js";
import type { Services } from "../../src/services.js";
import { BOTH_DATABASES, type DatabaseUnderTest } from "../support/databases.js";

/** The default limit: every place is claimed on its own. */
const LIMIT = 120;

async function countsPerWindowAndOrganization(counter: WindowCounter): Promise<void> {
  expect(await counter.increment("org_a", 60, LIMIT)).toBe(1);
  expect(await counter.increment("org_a", 60, LIMIT)).toBe(2);
  expect(await counter.increment("org_b", 60, LIMIT)).toBe(1);
  expect(await counter.increment("org_a", 60, LIMIT)).toBe(3);
  // A new window starts from zero for everyone.
  expect(await counter.increment("org_a", 120, LIMIT)).toBe(1);
  expect(await counter.increment("org_b", 120, LIMIT)).toBe(1);
}

describe("rate-limit window counters", () => {
  it("in memory: count per organization and window", async () => {
    await countsPerWindowAndOrganization(new MemoryWindowCounter());
  });

  it("in memory: concurrent increments each get their own count", async () => {
    const counter: WindowCounter = new MemoryWindowCounter();
    const counts = await Promise.all(
      Array.from({ length: 50 }, () => counter.increment("org_a", 60, LIMIT)),
    );
    expect(counts.sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });

  describe.each(BOTH_DATABASES)("in the database ($name)", (kind) => {
    let database: DatabaseUnderTest;
    let services: Services;

    beforeAll(async () => {
      database = await kind.create();
      services = await database.open();
    });

    afterAll(async () => {
      await database?.dispose();
    });

    it("count per organization and window, and prune windows past", async () => {
      const counter = new DatabaseWindowCounter(services.database.db, 60);
      await countsPerWindowAndOrganization(counter);
      await counter.increment("org_a", 240, LIMIT);
      const windows = await services.database.db.query
        .selectFrom("rate_limit_windows")
        .select("window_start")
        .distinct()
        .execute();
      expect(windows.map((row) => row.window_start).sort()).toEqual([240]);
    });

    it("share one count between processes (separate connections)", async () => {
      const other = await database.open();
      const first = new DatabaseWindowCounter(services.database.db, 60);
      const second = new DatabaseWindowCounter(other.database.db, 60);
      const counts = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          (i % 2 ? first : second).increment("org_shared", 600, LIMIT),
        ),
      );
      expect(counts.sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    });

    it("under a high limit, claim places a slice at a time and never hand one out twice", async () => {
      const limit = 10_000;
      expect(placesPerClaim(limit)).toBe(100);
      const other = await database.open();
      const first = new DatabaseWindowCounter(services.database.db, 60);
      const second = new DatabaseWindowCounter(other.database.db, 60);
      const counts = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          (i % 2 ? first : second).increment("org_sliced", 600, limit),
        ),
      );
      expect(new Set(counts).size).toBe(40);
      // One slice of 100 places each, whichever process claimed first.
      expect(Math.max(...counts)).toBeLessThanOrEqual(200);
      const [row] = await services.database.db.query
        .selectFrom("rate_limit_windows")
        .select("request_count")
        .where("organization_id", "=", "org_sliced")
        .execute();
      expect(Number(row?.request_count)).toBe(200);
    });

    it("admit the limit across processes, less at most a slice each, never more", async () => {
      const limit = 3_000;
      const slice = placesPerClaim(limit);
      expect(slice).toBe(30);
      expect(placesPerClaim(999)).toBe(1);
      const other = await database.open();
      const first = new DatabaseWindowCounter(services.database.db, 60);
      const second = new DatabaseWindowCounter(other.database.db, 60);
      const counts = await Promise.all(
        Array.from({ length: 3_200 }, (_, i) =>
          (i % 2 ? first : second).increment("org_limited", 600, limit),
        ),
      );
      expect(new Set(counts).size).toBe(3_200);
      const admitted = counts.filter((place) => place <= limit).length;
      expect(admitted).toBeLessThanOrEqual(limit);
      expect(admitted).toBeGreaterThanOrEqual(limit - 2 * (slice - 1));
    });
  });
});
