import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Services } from "../../src/services.js";
import { usdToNanos } from "../../src/util/money.js";
import { BOTH_DATABASES, type DatabaseUnderTest } from "../support/databases.js";
import { ledgerTotals } from "../support/ledger-totals.js";

const usd = usdToNanos;

/** Work charged "once" under a reference: the database, not a prior lookup, forbids a second charge. */
describe.each(BOTH_DATABASES)("single charges per reference on $name", (kind) => {
  let database: DatabaseUnderTest;
  let services: Services;
  let second: Services;

  beforeAll(async () => {
    database = await kind.create();
    services = await database.open();
    // A second connection (pool) models a second process racing the first.
    second = await database.open();
  });

  afterAll(async () => {
    await database?.dispose();
  });

  async function orgWith(dollars: string): Promise<string> {
    return (await services.accounts.open({ name: "once", creditsNanos: usd(dollars) })).organization
      .id;
  }

  async function charges(orgId: string): Promise<number[]> {
    return (await services.ledger.entries(orgId))
      .filter((entry) => entry.kind === "charge")
      .map((entry) => entry.amount_nanos);
  }

  it("turns a second settlement under the same reference into a release", async () => {
    const orgId = await orgWith("10");
    const first = await services.ledger.reserve(orgId, usd("2"), "batch_1:line-7");
    const again = await services.ledger.reserve(orgId, usd("2"), "batch_1:line-7");
    const once = { reference: "batch_1:line-7", once: true };
    expect((await services.ledger.settle(first, usd("1.5"), once)).chargedNanos).toBe(usd("1.5"));
    expect((await services.ledger.settle(again, usd("1.5"), once)).chargedNanos).toBe(0);
    expect(await services.ledger.balance(orgId)).toBe(usd("8.5"));
    expect(await charges(orgId)).toEqual([-usd("1.5")]);
    const totals = await ledgerTotals(services, orgId);
    expect(totals.held).toBe(0);
    expect(totals.balance + totals.held).toBe(totals.ledger);
  });

  it("lets the same reference be charged by another organization", async () => {
    const a = await orgWith("1");
    const b = await orgWith("1");
    const once = { reference: "shared-name", once: true };
    await services.ledger.settle(await services.ledger.reserve(a, usd("1")), usd("0.5"), once);
    await services.ledger.settle(await services.ledger.reserve(b, usd("1")), usd("0.5"), once);
    expect(await charges(a)).toEqual([-usd("0.5")]);
    expect(await charges(b)).toEqual([-usd("0.5")]);
  });

  it("does not use up the reference when the hold was already released", async () => {
    const orgId = await orgWith("5");
    const once = { reference: "reclaimed-line", once: true };
    const lost = await services.ledger.reserve(orgId, usd("1"), "reclaimed-line");
    await services.ledger.release(lost);
    expect((await services.ledger.settle(lost, usd("1"), once)).chargedNanos).toBe(0);
    const rerun = await services.ledger.reserve(orgId, usd("1"), "reclaimed-line");
    expect((await services.ledger.settle(rerun, usd("0.75"), once)).chargedNanos).toBe(usd("0.75"));
    expect(await services.ledger.balance(orgId)).toBe(usd("4.25"));
  });

  it("charges exactly once when many runs of the same work settle at once, from two processes", async () => {
    const orgId = await orgWith("100");
    const once = { reference: "racing-line", once: true };
    const holds = await Promise.all(
      Array.from({ length: 24 }, (_, index) =>
        (index % 2 === 0 ? services : second).ledger.reserve(orgId, usd("1"), "racing-line"),
      ),
    );
    const settled = await Promise.all(
      holds.map((hold, index) =>
        (index % 2 === 0 ? services : second).ledger.settle(hold, usd("0.8"), once),
      ),
    );
    expect(settled.filter((s) => s.chargedNanos > 0)).toHaveLength(1);
    expect(await charges(orgId)).toEqual([-usd("0.8")]);
    expect(await services.ledger.balance(orgId)).toBe(usd("99.2"));
  });

  it("is enforced by the database itself", async () => {
    const insert = (reference: string) =>
      services.database.db.changes(sql`
        insert into single_use_references (scope, reference, created_at)
        values ('charge:org_direct', ${reference}, 0)`);
    await insert("direct");
    await expect(insert("direct")).rejects.toThrow(/unique|primary key|duplicate/i);
  });
});
