import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Services } from "../../src/services.js";
import { usdToNanos } from "../../src/util/money.js";
import { BOTH_DATABASES, type DatabaseUnderTest } from "../support/databases.js";
import { ManualClock } from "../support/manual-clock.js";
import { silentLog } from "../support/silent-log.js";

const usd = usdToNanos;
const LEASE_SECONDS = 15;

/** Holds belong to a live process: a dead process's holds come back, a live one's stay. */
describe.each(BOTH_DATABASES)("hold ownership on $name", (kind) => {
  let database: DatabaseUnderTest;
  const clock = new ManualClock();

  beforeAll(async () => {
    database = await kind.create();
  });

  afterAll(async () => {
    await database?.dispose();
  });

  async function openAccount(services: Services, dollars: string): Promise<string> {
    return (await services.accounts.open({ name: "holds", creditsNanos: usd(dollars) }))
      .organization.id;
  }

  it("returns the holds of a process that stopped beating, and only those", async () => {
    const dying = await database.open(clock);
    const survivor = await database.open(clock);
    await dying.holds.start("serve", silentLog);
    await survivor.holds.start("worker", silentLog);
    const orgId = await openAccount(survivor, "10");

    const orphan = await dying.ledger.reserve(orgId, usd("3"));
    const kept = await survivor.ledger.reserve(orgId, usd("2"));
    expect(await survivor.ledger.balance(orgId)).toBe(usd("5"));

    // The dying process stops beating (as after kill -9): its timer never fires again.
    clock.advanceSeconds(LEASE_SECONDS - 1);
    await survivor.holds.sweep();
    expect(await survivor.ledger.balance(orgId)).toBe(usd("5"));

    clock.advanceSeconds(2);
    await survivor.holds.sweep();
    expect(await survivor.ledger.balance(orgId)).toBe(usd("8"));
    const open = await survivor.ledger.held(orgId);
    expect(open.map((hold) => hold.id)).toEqual([kept.id]);

    // The orphan was released, so its late settlement charges nothing.
    expect((await dying.ledger.settle(orphan, usd("3"))).chargedNanos).toBe(0);
    expect((await survivor.ledger.settle(kept, usd("1"))).chargedNanos).toBe(usd("1"));
    expect(await survivor.ledger.balance(orgId)).toBe(usd("9"));
  });

  it("keeps a live process's old holds however long its work takes", async () => {
    const live = await database.open(clock);
    await live.holds.start("serve", silentLog);
    const orgId = await openAccount(live, "4");
    const slow = await live.ledger.reserve(orgId, usd("4"));
    for (let beat = 0; beat < 10; beat++) {
      clock.advanceSeconds(LEASE_SECONDS);
      await live.holds.sweep();
    }
    expect((await live.ledger.held(orgId)).map((hold) => hold.id)).toEqual([slow.id]);
    expect(await live.ledger.balance(orgId)).toBe(0);
  });

  it("returns holds whose process never registered once they are older than the lease", async () => {
    const silent = await database.open(clock);
    const live = await database.open(clock);
    await live.holds.start("worker", silentLog);
    const orgId = await openAccount(live, "2");
    await silent.ledger.reserve(orgId, usd("2"));
    await live.holds.sweep();
    expect(await live.ledger.balance(orgId)).toBe(0);
    clock.advanceSeconds(LEASE_SECONDS + 1);
    await live.holds.sweep();
    expect(await live.ledger.balance(orgId)).toBe(usd("2"));
  });

  it("retries a release that failed, and forgets the process when it stops", async () => {
    const services = await database.open(clock);
    await services.holds.start("serve", silentLog);
    const orgId = await openAccount(services, "1");
    const hold = await services.ledger.reserve(orgId, usd("1"));
    const release = services.ledger.release.bind(services.ledger);
    let failures = 1;
    services.ledger.release = async (reservation, db) => {
      if (failures-- > 0) throw new Error("database unreachable");
      return release(reservation, db);
    };
    await services.holds.release(hold);
    expect(await services.ledger.balance(orgId)).toBe(0);
    await services.holds.sweep();
    expect(await services.ledger.balance(orgId)).toBe(usd("1"));
    await services.holds.stop();
    const rows = await services.database.db.query
      .selectFrom("processes")
      .select("id")
      .where("id", "=", services.ledger.owner)
      .execute();
    expect(rows).toEqual([]);
  });
});
