import fc from "fast-check";
import { afterAll, beforeAll, describe, it } from "vitest";
import type { Services } from "../../src/services.js";
import { BOTH_DATABASES, type DatabaseUnderTest } from "../support/databases.js";
import { ManualClock } from "../support/manual-clock.js";
import { expectConsistent } from "./support/ledger-checks.js";
import {
  HoldRequest,
  Release,
  Reserve,
  SetKeyLimit,
  Settle,
  TopUp,
} from "./support/ledger-commands.js";
import type { LedgerModel, LedgerSystem } from "./support/ledger-model.js";
import { Crash, CutOff, PassTime, Restart } from "./support/process-commands.js";

const CENT = 10_000_000;
const RUNS = 50;

const amount = fc.integer({ min: 1, max: 40 }).map((cents) => cents * CENT);
const whichProcess = fc.constantFrom("A" as const, "B" as const);

/** Most picks are of an open hold; one in four of any hold, closed ones included (a repeat). */
const pick = fc.tuple(fc.nat(), fc.nat(3)).map(([index, any]) => ({ index, any: any === 0 }));

const settle = fc
  .tuple(pick, fc.constantFrom(0, 0.5, 1, 1.5, 3), fc.boolean())
  .map(([which, factor, split]) => new Settle(which, factor, split));

const hold = fc.tuple(whichProcess, amount).map(([who, nanos]) => new HoldRequest(who, nanos));
const reserve = fc
  .tuple(whichProcess, amount, fc.boolean(), fc.option(fc.nat(3)))
  .map(([who, nanos, keyed, line]) => new Reserve(who, nanos, keyed, line));

// Holds and settlements listed more than once: they are most of what a ledger does.
const commands = fc.commands(
  [
    fc
      .tuple(fc.integer({ min: 1, max: 100 }), fc.boolean())
      .map(([cents, paid]) => new TopUp(cents * CENT, paid)),
    hold,
    hold,
    reserve,
    reserve,
    settle,
    settle,
    settle,
    pick.map((which) => new Release(which)),
    amount.map((nanos) => new SetKeyLimit(nanos * 2)),
    fc.constant(new CutOff()),
    fc.constant(new Crash()),
    fc.boolean().map((late) => new Restart(late)),
    fc.constant(new PassTime()),
  ],
  { maxCommands: 50, size: "max" },
);

/**
 * Random holds (leased and stored), settlements below, at and above their holds, releases,
 * key-limit changes, top-ups, batch lines, and a second process that is cut off, crashes and
 * starts again, against the real ledger on a real database. Checked after every step against a
 * model of the money: spendable balance + open stored holds = the sum of the ledger, the balance
 * never below zero, the key never past its limit, and nothing charged twice.
 */
describe.each(BOTH_DATABASES)("the ledger against its model on $name", (kind) => {
  let database: DatabaseUnderTest;
  let a: Services;
  const clock = new ManualClock();

  beforeAll(async () => {
    database = await kind.create();
    a = await database.open(clock);
  });

  afterAll(async () => {
    await database?.dispose();
  });

  it("keeps every sequence of money operations consistent", async () => {
    await fc.assert(
      fc.asyncProperty(commands, async (sequence) => {
        const organization = await a.organizations.create("model");
        const opening = 100 * CENT;
        await a.ledger.credit(organization.id, opening, "topup");
        const limit = 50 * CENT;
        const key = await a.organizationKeys.create(organization.id, { spendLimitNanos: limit });
        const b = await database.open(clock);
        // The sweep every process runs as it starts, which is also its first beat.
        await b.holds.sweep();
        const system: LedgerSystem = {
          database,
          a,
          b,
          clock,
          organizationId: organization.id,
          keyId: key.record.id,
          leaseSeconds: a.config.batches.lease_seconds,
        };
        const model: LedgerModel = {
          balance: opening,
          keyLimit: limit,
          keySpent: 0,
          keyCeiling: limit,
          holds: [],
          charged: new Map(),
          chargedOnce: new Set(),
          b: "alive",
          bLife: 0,
          requests: 0,
        };
        try {
          await fc.asyncModelRun(
            () => ({ model, real: system }),
            [...sequence].map((command) => ({
              check: (m: Readonly<LedgerModel>) => command.check(m),
              run: async (m: LedgerModel, r: LedgerSystem) => {
                await command.run(m, r);
                await expectConsistent(m, r);
              },
              toString: () => command.toString(),
            })),
          );
        } finally {
          // B closing after the sweep returned its leases is a process that comes back.
          if (model.b !== "crashed") await system.b.close();
        }
        await expectConsistent(model, system);
      }),
      // A failure's shrinking reopens process B many times: it stops after this long.
      { numRuns: RUNS, interruptAfterTimeLimit: 200_000 },
    );
  }, 300_000);
});
