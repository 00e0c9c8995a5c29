import fc from "fast-check";
import { afterAll, beforeAll, describe, it } from "vitest";
import type { Services } from "../../src/services.js";
import { BOTH_DATABASES, type DatabaseUnderTest } from "../support/databases.js";
import { ManualClock } from "../support/manual-clock.js";
import {
  BDies,
  expectConsistent,
  HoldRequest,
  Release,
  Reserve,
  SetKeyLimit,
  Settle,
  TopUp,
} from "./support/ledger-commands.js";
import type { LedgerModel, LedgerSystem } from "./support/ledger-model.js";

const CENT = 10_000_000;
const RUNS = 50;

const amount = fc.integer({ min: 1, max: 40 }).map((cents) => cents * CENT);
const whichProcess = fc.constantFrom("A" as const, "B" as const);

const settle = fc
  .tuple(fc.nat(), fc.constantFrom(0, 0.5, 1, 1.5, 3))
  .map(([pick, factor]) => new Settle(pick, factor));

// Settlements listed twice: most holds end in one, as requests do.
const commands = fc.commands(
  [
    fc.integer({ min: 1, max: 100 }).map((cents) => new TopUp(cents * CENT)),
    fc.tuple(whichProcess, amount).map(([who, nanos]) => new HoldRequest(who, nanos)),
    fc
      .tuple(whichProcess, amount, fc.boolean(), fc.option(fc.integer({ min: 0, max: 5 })))
      .map(([who, nanos, keyed, line]) => new Reserve(who, nanos, keyed, line)),
    settle,
    settle,
    fc.nat().map((pick) => new Release(pick)),
    amount.map((nanos) => new SetKeyLimit(nanos * 2)),
    fc.constant(new BDies()),
  ],
  { maxCommands: 40, size: "max" },
);

/**
 * Random holds, settlements, releases, key-limit changes, top-ups, batch lines and a process
 * death against the real ledger, checked after every step against a model of the money:
 * balance + held = ledger, the balance never below zero, the key never past its limit, and no
 * line charged twice.
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
        const limit = 50 * CENT;
        const key = await a.organizationKeys.create(organization.id, { spendLimitNanos: limit });
        const b = await database.open(clock);
        const system: LedgerSystem = {
          a,
          b,
          clock,
          organizationId: organization.id,
          keyId: key.record.id,
          leaseSeconds: a.config.batches.lease_seconds,
        };
        const model: LedgerModel = {
          balance: 0,
          keyLimit: limit,
          keySpent: 0,
          holds: [],
          chargedOnce: new Set(),
          bDead: false,
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
          await b.close();
        }
        await expectConsistent(model, system);
      }),
      // A failure's shrinking reopens process B many times: it stops after this long.
      { numRuns: RUNS, interruptAfterTimeLimit: 200_000 },
    );
  }, 300_000);
});
