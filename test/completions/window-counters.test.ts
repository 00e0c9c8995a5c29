import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DatabaseWindowCounter } from "../../src/limits/database-window-counter.js";
import { MemoryWindowCounter } from "../../src/limits/memory-window-counter.js";
import type { WindowCounter } from "../../src/limits/window-counter.js";
import type { Services } from "../../src/services.js";
import { BOTH_DATABASES, type DatabaseUnderTest } from "../foundation/support/databases.js";

async function countsPerWindowAndOrganization(counter: WindowCounter): Promise<void> {
  expect(await counter.increment("org_a", 60)).toBe(1);
  expect(await counter.increment("org_a", 60)).toBe(2);
  expect(await counter.increment("org_b", 60)).toBe(1);
  expect(await counter.increment("org_a", 60)).toBe(3);
  // A new window starts from zero for everyone.
  expect(await counter.increment("org_a", 120)).toBe(1);
  expect(await counter.increment("org_b", 120)).toBe(1);
}

describe("rate-limit window counters", () => {
  it("in memory: count per organization and window", async () => {
    await countsPerWindowAndOrganization(new MemoryWindowCounter());
  });

  it("in memory: concurrent increments each get their own count", async () => {
    const counter = new MemoryWindowCounter();
    const counts = await Promise.all(
      Array.from({ length: 50 }, () => counter.increment("org_a", 60)),
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
      await counter.increment("org_a", 240);
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
        Array.from({ length: 40 }, (_, i) => (i % 2 ? first : second).increment("org_shared", 600)),
      );
      expect(counts.sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    });
  });
});
