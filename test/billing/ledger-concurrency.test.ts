import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Reservation } from "../../src/billing/ledger.js";
import { ServiceError } from "../../src/errors.js";
import type { Services } from "../../src/services.js";
import { usdToNanos } from "../../src/util/money.js";
import { BOTH_DATABASES, type DatabaseUnderTest } from "../support/databases.js";
import { ledgerTotals } from "../support/ledger-totals.js";

const usd = usdToNanos;

/** Outcome of one racing reserve: the hold, or null when credits ran out. */
async function tryReserve(services: Services, orgId: string, nanos: number) {
  try {
    return await services.ledger.reserve(orgId, nanos);
  } catch (error) {
    if (error instanceof ServiceError && error.kind === "insufficient_credits") return null;
    throw error;
  }
}

/** A fixed, reproducible sequence of costs. */
function costs(count: number, maxNanos: number): number[] {
  let seed = 12345;
  return Array.from({ length: count }, () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % (maxNanos + 1);
  });
}

describe.each(BOTH_DATABASES)("credit ledger under concurrency on $name", (kind) => {
  let database: DatabaseUnderTest;
  /**
   * PostgreSQL: three Services, each with its own pool, stand in for three processes. SQLite is
   * single-connection per process (better-sqlite3 blocks the thread while it waits for a lock),
   * so one process races itself here and the CLI tests race separate processes.
   */
  let pools: Services[];

  beforeAll(async () => {
    database = await kind.create();
    const first = await database.open();
    pools =
      kind.name === "postgres" ? [first, await database.open(), await database.open()] : [first];
  });

  afterAll(async () => {
    await database?.dispose();
  });

  const pool = (i: number): Services => pools[i % pools.length] as Services;
  const main = (): Services => pool(0);

  async function orgWith(dollars: string): Promise<string> {
    const org = await main().organizations.create(`race ${kind.name}`);
    await main().ledger.credit(org.id, usd(dollars), "topup");
    return org.id;
  }

  async function expectConsistent(orgId: string) {
    const totals = await ledgerTotals(main(), orgId);
    expect(totals.balance).toBeGreaterThanOrEqual(0);
    expect(totals.balance + totals.held).toBe(totals.ledger);
    return totals;
  }

  it("lets exactly 10 of 60 racing $1 holds through against $10", async () => {
    const orgId = await orgWith("10");
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) => tryReserve(pool(i), orgId, usd("1"))),
    );
    expect(results.filter((r) => r !== null)).toHaveLength(10);
    const totals = await expectConsistent(orgId);
    expect(totals).toEqual({ balance: 0, held: usd("10"), ledger: usd("10") });
  });

  it("keeps the balance exact when holds are settled and released while others race", async () => {
    const orgId = await orgWith("10");
    const hold = usd("0.5");
    // Costs up to 1.6× the hold, so some settlements overshoot it.
    const actual = costs(120, usd("0.8"));
    let charged = 0;
    const outcomes = await Promise.all(
      actual.map(async (cost, i) => {
        const services = pool(i);
        const reservation = await tryReserve(services, orgId, hold);
        if (!reservation) return "refused";
        if (i % 5 === 0) {
          await services.ledger.release(reservation);
          return "released";
        }
        const settled = await services.ledger.settle(reservation, cost);
        charged += settled.chargedNanos;
        expect(settled.balanceNanos).toBeGreaterThanOrEqual(0);
        return "settled";
      }),
    );
    expect(outcomes).toContain("settled");
    expect(outcomes).toContain("refused");
    const totals = await expectConsistent(orgId);
    expect(totals.held).toBe(0);
    expect(totals.balance).toBe(usd("10") - charged);
    const entries = await main().ledger.entries(orgId);
    const charges = entries.filter((e) => e.kind === "charge");
    expect(charges.reduce((sum, e) => sum - e.amount_nanos, 0)).toBe(charged);
  });

  it("never lets overshooting settlements push the balance below zero", async () => {
    const orgId = await orgWith("3");
    const holds = await Promise.all([0, 1, 2].map((i) => pool(i).ledger.reserve(orgId, usd("1"))));
    const settled = await Promise.all(
      holds.map((reservation, i) => pool(i).ledger.settle(reservation, usd("2.5"))),
    );
    expect(settled.reduce((sum, s) => sum + s.chargedNanos, 0)).toBe(usd("3"));
    const totals = await expectConsistent(orgId);
    expect(totals).toEqual({ balance: 0, held: 0, ledger: 0 });
  });

  it("settles or releases a reservation once when both race", async () => {
    const orgId = await orgWith("5");
    const reservations: Reservation[] = await Promise.all(
      [0, 1, 2, 3].map(() => main().ledger.reserve(orgId, usd("1"))),
    );
    await Promise.all(
      reservations.flatMap((reservation, i) => [
        pool(i).ledger.settle(reservation, usd("0.25")),
        pool(i + 1).ledger.release(reservation),
        pool(i + 2).ledger.settle(reservation, usd("0.25")),
      ]),
    );
    const rows = await main()
      .database.db.query.selectFrom("reservations")
      .select(["status", "charged_nanos"])
      .where("organization_id", "=", orgId)
      .execute();
    expect(rows.every((row) => row.status === "settled" || row.status === "released")).toBe(true);
    const settledCount = rows.filter((row) => row.status === "settled").length;
    const charges = (await main().ledger.entries(orgId)).filter((e) => e.kind === "charge");
    expect(charges).toHaveLength(settledCount);
    const totals = await expectConsistent(orgId);
    expect(totals.held).toBe(0);
    expect(totals.balance).toBe(usd("5") - settledCount * usd("0.25"));
  });

  it("adds credits that race with holds without losing any", async () => {
    const orgId = await orgWith("1");
    const work = Array.from({ length: 40 }, (_, i) =>
      i % 2 === 0
        ? pool(i).ledger.credit(orgId, usd("0.5"), "topup")
        : tryReserve(pool(i), orgId, usd("0.25")),
    );
    await Promise.all(work);
    const totals = await expectConsistent(orgId);
    expect(totals.ledger).toBe(usd("1") + 20 * usd("0.5"));
  });
});
