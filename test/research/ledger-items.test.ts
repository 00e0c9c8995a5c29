import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allocateCharge } from "../../src/billing/ledger.js";
import type { Services } from "../../src/services.js";
import { usdToNanos } from "../../src/util/money.js";
import { BOTH_DATABASES, type DatabaseUnderTest } from "../support/databases.js";
import { ledgerTotals } from "../support/ledger-totals.js";

const usd = usdToNanos;

describe("allocateCharge", () => {
  it("pays the parts in order when the charge falls short", () => {
    expect(allocateCharge([5, 3, 10], 18)).toEqual([5, 3, 10]);
    expect(allocateCharge([5, 3, 10], 7)).toEqual([5, 2, 0]);
    expect(allocateCharge([5, 3, 10], 0)).toEqual([0, 0, 0]);
  });
});

describe.each(BOTH_DATABASES)("itemized settlements on $name", (kind) => {
  let database: DatabaseUnderTest;
  let services: Services;

  beforeAll(async () => {
    database = await kind.create();
    services = await database.open();
  });

  afterAll(async () => {
    await database?.dispose();
  });

  async function orgWith(dollars: string): Promise<string> {
    const org = await services.organizations.create(`items ${kind.name}`);
    await services.ledger.credit(org.id, usd(dollars), "topup");
    return org.id;
  }

  async function charges(orgId: string) {
    const entries = await services.ledger.entries(orgId);
    return entries
      .filter((entry) => entry.kind === "charge")
      .map(({ amount_nanos, balance_after_nanos, reference, memo }) => ({
        amount: Number(amount_nanos),
        after: Number(balance_after_nanos),
        reference,
        memo,
      }));
  }

  const items = [
    { amountNanos: usd("0.01"), memo: "research:news_search" },
    { amountNanos: 0, memo: "research:free" },
    { amountNanos: usd("0.02"), memo: "research:web_search" },
    { amountNanos: usd("0.5"), memo: "model-a" },
  ];

  it("writes one entry per part that cost something, balances running in order", async () => {
    const orgId = await orgWith("10");
    const hold = await services.ledger.reserve(orgId, usd("1"), "req_1");
    const settlement = await services.ledger.settle(hold, usd("0.53"), {
      reference: "req_1",
      items,
    });
    expect(settlement).toEqual({ chargedNanos: usd("0.53"), balanceNanos: usd("9.47") });
    expect(await charges(orgId)).toEqual([
      {
        amount: -usd("0.01"),
        after: usd("9.99"),
        reference: "req_1",
        memo: "research:news_search",
      },
      { amount: -usd("0.02"), after: usd("9.97"), reference: "req_1", memo: "research:web_search" },
      { amount: -usd("0.5"), after: usd("9.47"), reference: "req_1", memo: "model-a" },
    ]);
    const totals = await ledgerTotals(services, orgId);
    expect(totals.balance + totals.held).toBe(totals.ledger);
  });

  it("shares out a charge the balance cut short, in the parts' order", async () => {
    const orgId = await orgWith("0.04");
    const hold = await services.ledger.reserve(orgId, usd("0.02"), "req_2");
    const settlement = await services.ledger.settle(hold, usd("0.53"), {
      reference: "req_2",
      items,
    });
    expect(settlement).toEqual({ chargedNanos: usd("0.04"), balanceNanos: 0 });
    expect(await charges(orgId)).toEqual([
      {
        amount: -usd("0.01"),
        after: usd("0.03"),
        reference: "req_2",
        memo: "research:news_search",
      },
      { amount: -usd("0.02"), after: usd("0.01"), reference: "req_2", memo: "research:web_search" },
      { amount: -usd("0.01"), after: 0, reference: "req_2", memo: "model-a" },
    ]);
  });

  it("charges a work reference once, with all its parts, however often it settles", async () => {
    const orgId = await orgWith("10");
    const once = { reference: "batch_1:line", once: true, items };
    const first = await services.ledger.reserve(orgId, usd("1"), "batch_1:line");
    const again = await services.ledger.reserve(orgId, usd("1"), "batch_1:line");
    expect((await services.ledger.settle(first, usd("0.53"), once)).chargedNanos).toBe(usd("0.53"));
    expect((await services.ledger.settle(again, usd("0.53"), once)).chargedNanos).toBe(0);
    expect(await charges(orgId)).toHaveLength(3);
    expect(await services.ledger.balance(orgId)).toBe(usd("9.47"));
  });

  it("refuses parts that do not add up to the cost", async () => {
    const orgId = await orgWith("1");
    const hold = await services.ledger.reserve(orgId, usd("1"));
    await expect(
      services.ledger.settle(hold, usd("0.5"), {
        items: [{ amountNanos: usd("0.4"), memo: null }],
      }),
    ).rejects.toThrow(RangeError);
    expect(await services.ledger.held(orgId)).toHaveLength(1);
  });
});
