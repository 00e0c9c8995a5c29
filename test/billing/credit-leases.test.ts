import { type RawBuilder, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Ledger, type Reservation } from "../../src/billing/ledger.js";
import type { Db } from "../../src/db/database.js";
import { isPlain, type PlainStatement } from "../../src/db/plain-statement.js";
import { ServiceError } from "../../src/errors.js";
import type { Services } from "../../src/services.js";
import { BOTH_DATABASES, type DatabaseUnderTest } from "../support/databases.js";
import { ledgerTotals } from "../support/ledger-totals.js";

const usage = { apiKeyId: null, model: "m", inputTokens: 3, outputTokens: 5 };

/** A leased hold, or null when the credits ran out. */
async function tryHold(ledger: Ledger, organizationId: string, nanos: number) {
  try {
    return await ledger.holdForRequest(organizationId, nanos, "req");
  } catch (error) {
    if (error instanceof ServiceError && error.kind === "insufficient_credits") return null;
    throw error;
  }
}

async function leaseRows(services: Services, organizationId: string) {
  return services.database.db.query
    .selectFrom("reservations")
    .select(["id", "status", "amount_nanos", "charged_nanos", "owner"])
    .where("organization_id", "=", organizationId)
    .where("kind", "=", "lease")
    .execute();
}

async function storedBalance(services: Services, organizationId: string): Promise<number> {
  const [row] = await services.database.db.rows<{ balance_nanos: number }>(
    sql`select balance_nanos from organizations where id = ${organizationId}`,
  );
  return Number(row?.balance_nanos);
}

describe.each(BOTH_DATABASES)("credit leases on $name", (kind) => {
  let database: DatabaseUnderTest;
  let services: Services;

  beforeAll(async () => {
    database = await kind.create();
    services = await database.open();
  });

  afterAll(async () => {
    await database?.dispose();
  });

  async function orgWith(nanos: number): Promise<string> {
    const org = await services.organizations.create(`lease ${kind.name}`);
    await services.ledger.credit(org.id, nanos, "topup");
    return org.id;
  }

  it("holds in memory, then writes each charge with its usage and the balance after it", async () => {
    const orgId = await orgWith(10_000_000);
    const ledger = new Ledger(services.database.db, services.clock, "prc_lease_a");
    const holds = await Promise.all(
      Array.from({ length: 5 }, () => ledger.holdForRequest(orgId, 100_000, "req")),
    );
    expect(holds.every((hold) => hold.leaseId !== undefined)).toBe(true);
    // One lease row, no per-request hold rows; the balance still shows the leased money.
    const [lease] = await leaseRows(services, orgId);
    expect(lease?.status).toBe("held");
    expect(await services.ledger.held(orgId)).toEqual([]);
    expect(await services.ledger.balance(orgId)).toBe(10_000_000);
    expect(await storedBalance(services, orgId)).toBe(10_000_000 - Number(lease?.amount_nanos));

    const settled = await Promise.all(
      holds.map((hold, index) =>
        ledger.settle(hold, 40_000 + index, { reference: `req-${index}`, memo: "x", usage }),
      ),
    );
    const charged = settled.reduce((sum, outcome) => sum + outcome.chargedNanos, 0);
    expect(charged).toBe(5 * 40_000 + 10);
    expect(await services.ledger.balance(orgId)).toBe(10_000_000 - charged);
    const charges = (await services.ledger.entries(orgId)).filter((e) => e.kind === "charge");
    expect(charges.map((entry) => entry.reference).sort()).toEqual(
      ["req-0", "req-1", "req-2", "req-3", "req-4"].sort(),
    );
    // Each entry states the balance after it, ending at the balance now.
    const last = charges.at(-1);
    expect(last?.balance_after_nanos).toBe(10_000_000 - charged);
    for (const [index, entry] of charges.entries()) {
      if (index === 0) continue;
      const before = charges[index - 1]?.balance_after_nanos as number;
      expect(entry.balance_after_nanos).toBe(before + entry.amount_nanos);
    }
    const records = await services.database.db.query
      .selectFrom("usage_records")
      .select(["cost_nanos"])
      .where("organization_id", "=", orgId)
      .execute();
    expect(records.map((row) => Number(row.cost_nanos)).sort()).toEqual(
      settled.map((outcome) => outcome.chargedNanos).sort(),
    );

    // Closing gives the unspent part back: the stored balance is the whole balance again.
    await ledger.close();
    expect((await leaseRows(services, orgId)).map((row) => row.status)).toEqual(["settled"]);
    expect(await storedBalance(services, orgId)).toBe(10_000_000 - charged);
    expect(await ledgerTotals(services, orgId)).toEqual({
      balance: 10_000_000 - charged,
      held: 0,
      ledger: 10_000_000 - charged,
    });
  });

  it("lets exactly as many racing holds through as the balance covers", async () => {
    const orgId = await orgWith(2_000_000);
    const ledger = new Ledger(services.database.db, services.clock, "prc_lease_b");
    const holds = await Promise.all(
      Array.from({ length: 60 }, () => tryHold(ledger, orgId, 100_000)),
    );
    const granted = holds.filter((hold): hold is Reservation => hold !== null);
    expect(granted).toHaveLength(20);
    await Promise.all(granted.map((hold) => ledger.settle(hold, 100_000, { memo: "x" })));
    expect(await services.ledger.balance(orgId)).toBe(0);
    await ledger.close();
    expect(await ledgerTotals(services, orgId)).toEqual({ balance: 0, held: 0, ledger: 0 });
  });

  it("charges a cost above its hold from the lease, then from the balance, never below zero", async () => {
    const orgId = await orgWith(1_000_000);
    const ledger = new Ledger(services.database.db, services.clock, "prc_lease_c");
    const holds = await Promise.all([0, 1].map(() => ledger.holdForRequest(orgId, 100_000, "r")));
    const settled = await Promise.all(
      holds.map((hold) => ledger.settle(hold, 800_000, { memo: "long reply" })),
    );
    expect(settled.map((outcome) => outcome.chargedNanos).sort()).toEqual([200_000, 800_000]);
    expect(await services.ledger.balance(orgId)).toBe(0);
    await ledger.close();
    expect(await ledgerTotals(services, orgId)).toEqual({ balance: 0, held: 0, ledger: 0 });
  });

  it("returns a released hold to the lease, and settles a hold once", async () => {
    const orgId = await orgWith(1_000_000);
    const ledger = new Ledger(services.database.db, services.clock, "prc_lease_d");
    const [kept, dropped] = await Promise.all(
      [0, 1].map(() => ledger.holdForRequest(orgId, 100_000, "r")),
    );
    await ledger.release(dropped as Reservation);
    await ledger.release(dropped as Reservation);
    const first = await ledger.settle(kept as Reservation, 30_000, { memo: "x" });
    const again = await ledger.settle(kept as Reservation, 30_000, { memo: "x" });
    expect([first.chargedNanos, again.chargedNanos]).toEqual([30_000, 0]);
    expect(await ledger.settle(dropped as Reservation, 30_000, { memo: "x" })).toMatchObject({
      chargedNanos: 0,
    });
    await ledger.close();
    expect(await services.ledger.balance(orgId)).toBe(970_000);
  });

  it("never overdraws when several processes lease from one balance", async () => {
    const orgId = await orgWith(3_000_000);
    const processes = [0, 1, 2].map(
      (index) => new Ledger(services.database.db, services.clock, `prc_lease_many_${index}`),
    );
    const outcomes = await Promise.all(
      Array.from({ length: 90 }, async (_, index) => {
        const ledger = processes[index % 3] as Ledger;
        const hold = await tryHold(ledger, orgId, 100_000);
        if (!hold) return 0;
        return (await ledger.settle(hold, 60_000 + (index % 7) * 10_000, { memo: "x" }))
          .chargedNanos;
      }),
    );
    const charged = outcomes.reduce((sum, nanos) => sum + nanos, 0);
    expect(outcomes.filter((nanos) => nanos > 0).length).toBeGreaterThanOrEqual(20);
    for (const ledger of processes) await ledger.close();
    const totals = await ledgerTotals(services, orgId);
    expect(totals.balance).toBeGreaterThanOrEqual(0);
    expect(totals).toEqual({ balance: 3_000_000 - charged, held: 0, ledger: 3_000_000 - charged });
  });

  it("gives a dead process's lease back, less what its requests were charged", async () => {
    const orgId = await orgWith(5_000_000);
    const dead = new Ledger(services.database.db, services.clock, "prc_lease_dead");
    const hold = await dead.holdForRequest(orgId, 100_000, "r");
    await dead.settle(hold, 70_000, { memo: "x" });
    // An open hold dies with its process: its money is still in the lease row.
    await dead.holdForRequest(orgId, 100_000, "r");
    expect(await storedBalance(services, orgId)).toBeLessThan(5_000_000 - 70_000);

    const now = Math.floor(services.clock.now() / 1000);
    await services.ledger.releaseOrphaned(now + 1);
    expect((await leaseRows(services, orgId)).map((row) => row.status)).toEqual(["released"]);
    expect(await storedBalance(services, orgId)).toBe(5_000_000 - 70_000);
    expect(await services.ledger.balance(orgId)).toBe(5_000_000 - 70_000);
  });

  it("charges the balance for a lease closed under a live process, then takes a new lease", async () => {
    const orgId = await orgWith(2_000_000);
    const ledger = new Ledger(services.database.db, services.clock, "prc_lease_cut_off");
    const first = await ledger.holdForRequest(orgId, 100_000, "r");
    // The process looked dead (its heartbeat stopped while the database was away).
    await services.ledger.releaseOrphaned(Math.floor(services.clock.now() / 1000) + 1);
    expect(await storedBalance(services, orgId)).toBe(2_000_000);
    expect((await ledger.settle(first, 30_000, { memo: "x" })).chargedNanos).toBe(30_000);
    expect(await storedBalance(services, orgId)).toBe(1_970_000);
    const second = await ledger.holdForRequest(orgId, 100_000, "r");
    expect(second.leaseId).not.toBe(first.leaseId);
    await ledger.settle(second, 20_000, { memo: "x" });
    await ledger.close();
    expect((await leaseRows(services, orgId)).map((row) => row.status).sort()).toEqual([
      "released",
      "settled",
    ]);
    expect(await ledgerTotals(services, orgId)).toEqual({
      balance: 1_950_000,
      held: 0,
      ledger: 1_950_000,
    });
  });

  it("states the balance with what open leases have not spent when credits are added", async () => {
    const orgId = await orgWith(1_000_000);
    const ledger = new Ledger(services.database.db, services.clock, "prc_lease_topup");
    const hold = await ledger.holdForRequest(orgId, 100_000, "r");
    expect(await services.ledger.credit(orgId, 500_000, "topup")).toBe(1_500_000);
    const [entry] = (await services.ledger.entries(orgId)).slice(-1);
    expect(entry?.balance_after_nanos).toBe(1_500_000);
    await ledger.settle(hold, 100_000, { memo: "x" });
    await ledger.close();
    expect(await services.ledger.balance(orgId)).toBe(1_400_000);
  });

  it("gives an idle lease back to the balance", async () => {
    const orgId = await orgWith(1_000_000);
    let now = services.clock.now();
    const ledger = new Ledger(services.database.db, { now: () => now }, "prc_lease_idle");
    await ledger.settle(await ledger.holdForRequest(orgId, 10_000, "r"), 5_000, { memo: "x" });
    expect(await storedBalance(services, orgId)).toBeLessThan(995_000);
    now += 5_000;
    const deadline = Date.now() + 5_000;
    while ((await storedBalance(services, orgId)) !== 995_000 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await storedBalance(services, orgId)).toBe(995_000);
    expect((await leaseRows(services, orgId)).map((row) => row.status)).toEqual(["settled"]);
    await ledger.close();
  });

  it("fails a settlement whose charge could not be written, and returns its hold", async () => {
    const orgId = await orgWith(1_000_000);
    let failWrites = false;
    const db = failingWrites(services.database.db, () => failWrites);
    const ledger = new Ledger(db, services.clock, "prc_lease_fail");
    const hold = await ledger.holdForRequest(orgId, 100_000, "r");
    failWrites = true;
    await expect(ledger.settle(hold, 50_000, { memo: "x" })).rejects.toThrow("database away");
    failWrites = false;
    const next = await ledger.holdForRequest(orgId, 100_000, "r");
    await ledger.settle(next, 20_000, { memo: "x" });
    await ledger.close();
    expect(await services.ledger.balance(orgId)).toBe(980_000);
    expect((await services.ledger.entries(orgId)).filter((e) => e.kind === "charge")).toHaveLength(
      1,
    );
  });

  it("settles one organization's charges when another's, written at the same moment, fail", async () => {
    const [kept, failed] = [await orgWith(1_000_000), await orgWith(1_000_000)];
    let failWrites = false;
    const db = failingFor(services.database.db, failed, () => failWrites);
    const ledger = new Ledger(db, services.clock, "prc_two");
    const holds = [
      await ledger.holdForRequest(kept, 100_000, "r"),
      await ledger.holdForRequest(failed, 100_000, "r"),
    ];
    failWrites = true;
    const outcomes = await Promise.allSettled(
      holds.map((hold) => ledger.settle(hold, 30_000, { memo: "x" })),
    );
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected"]);
    failWrites = false;
    await ledger.close();
    expect(await services.ledger.balance(kept)).toBe(970_000);
    expect(await services.ledger.balance(failed)).toBe(1_000_000);
    const charges = async (orgId: string) =>
      (await services.ledger.entries(orgId)).filter((entry) => entry.kind === "charge");
    expect(await charges(kept)).toHaveLength(1);
    expect(await charges(failed)).toHaveLength(0);
  });
});

/**
 * The database, except that every statement naming `organizationId` fails while `failing()` says
 * so, in transactions too.
 */
function failingFor(db: Db, organizationId: string, failing: () => boolean): Db {
  const names = (statement: RawBuilder<unknown> | PlainStatement) =>
    failing() &&
    JSON.stringify(isPlain(statement) ? statement : statement.toOperationNode()).includes(
      organizationId,
    );
  const away = () => Promise.reject(new Error("database away"));
  return {
    dialect: db.dialect,
    inTransaction: db.inTransaction,
    query: db.query,
    rows: (statement) => (names(statement) ? away() : db.rows(statement)),
    changes: (statement) => (names(statement) ? away() : db.changes(statement)),
    transaction: (work) => db.transaction((tx) => work(failingFor(tx, organizationId, failing))),
  };
}

/** The database, except that every statement and transaction fails while `failing()` says so. */
function failingWrites(db: Db, failing: () => boolean): Db {
  const away = () => Promise.reject(new Error("database away"));
  return {
    dialect: db.dialect,
    inTransaction: db.inTransaction,
    query: db.query,
    rows: (statement) => (failing() ? away() : db.rows(statement)),
    changes: (statement) => (failing() ? away() : db.changes(statement)),
    transaction: (work) => (failing() ? away() : db.transaction(work)),
  };
}
