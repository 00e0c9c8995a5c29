import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ServiceError } from "../../src/errors.js";
import type { Services } from "../../src/services.js";
import { usdToNanos } from "../../src/util/money.js";
import { BOTH_DATABASES, type DatabaseUnderTest } from "../support/databases.js";
import { ledgerTotals } from "../support/ledger-totals.js";
import { ManualClock } from "../support/manual-clock.js";

const usd = usdToNanos;

describe.each(BOTH_DATABASES)("credit ledger on $name", (kind) => {
  let database: DatabaseUnderTest;
  let services: Services;
  const clock = new ManualClock();

  beforeAll(async () => {
    database = await kind.create();
    services = await database.open(clock);
  });

  afterAll(async () => {
    await database?.dispose();
  });

  async function orgWith(dollars: string): Promise<string> {
    const org = await services.organizations.create(`ledger ${kind.name}`);
    if (usd(dollars) > 0) await services.ledger.credit(org.id, usd(dollars), "topup");
    return org.id;
  }

  async function expectInvariant(orgId: string): Promise<void> {
    const totals = await ledgerTotals(services, orgId);
    expect(totals.balance).toBeGreaterThanOrEqual(0);
    expect(totals.balance + totals.held).toBe(totals.ledger);
  }

  async function reservationRow(id: string) {
    return services.database.db.query
      .selectFrom("reservations")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
  }

  describe("credit", () => {
    it("adds money and records an entry with its kind and reference", async () => {
      const orgId = await orgWith("0");
      expect(
        await services.ledger.credit(orgId, usd("2.5"), "topup", {
          reference: "pay_1",
          memo: "first",
        }),
      ).toBe(usd("2.5"));
      expect(await services.ledger.credit(orgId, usd("1"), "refund", { reference: "r_1" })).toBe(
        usd("3.5"),
      );
      expect(await services.ledger.credit(orgId, usd("0.25"), "adjustment")).toBe(usd("3.75"));
      const entries = await services.ledger.entries(orgId);
      expect(
        entries.map(({ kind, amount_nanos, balance_after_nanos, reference, memo }) => ({
          kind,
          amount_nanos,
          balance_after_nanos,
          reference,
          memo,
        })),
      ).toEqual([
        {
          kind: "topup",
          amount_nanos: usd("2.5"),
          balance_after_nanos: usd("2.5"),
          reference: "pay_1",
          memo: "first",
        },
        {
          kind: "refund",
          amount_nanos: usd("1"),
          balance_after_nanos: usd("3.5"),
          reference: "r_1",
          memo: null,
        },
        {
          kind: "adjustment",
          amount_nanos: usd("0.25"),
          balance_after_nanos: usd("3.75"),
          reference: null,
          memo: null,
        },
      ]);
      expect(await services.ledger.balance(orgId)).toBe(usd("3.75"));
    });

    it.each([-1, 0.5, Number.NaN, Number.MAX_SAFE_INTEGER + 2])(
      "rejects the amount %s",
      async (amount) => {
        const orgId = await orgWith("1");
        await expect(services.ledger.credit(orgId, amount, "topup")).rejects.toThrow(RangeError);
        await expect(services.ledger.reserve(orgId, amount)).rejects.toThrow(RangeError);
        expect(await services.ledger.balance(orgId)).toBe(usd("1"));
      },
    );

    it("reports an unknown organization as not found and writes nothing", async () => {
      const failure = await services.ledger
        .credit("org_missing", usd("1"), "topup")
        .catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(ServiceError);
      expect(failure).toMatchObject({ kind: "not_found", code: "organization_not_found" });
      expect(await services.ledger.entries("org_missing")).toEqual([]);
    });
  });

  describe("reserve, settle, release", () => {
    it("holds credits without a ledger entry", async () => {
      const orgId = await orgWith("10");
      const reservation = await services.ledger.reserve(orgId, usd("4"), "req_1");
      expect(reservation).toMatchObject({ organizationId: orgId, amountNanos: usd("4") });
      expect(await services.ledger.balance(orgId)).toBe(usd("6"));
      expect(await reservationRow(reservation.id)).toMatchObject({
        status: "held",
        amount_nanos: usd("4"),
        reference: "req_1",
        charged_nanos: null,
        finished_at: null,
      });
      expect((await services.ledger.entries(orgId)).map((e) => e.kind)).toEqual(["topup"]);
      await expectInvariant(orgId);
    });

    it("refuses a hold larger than the balance with insufficient_credits", async () => {
      const orgId = await orgWith("1");
      const failure = await services.ledger.reserve(orgId, usd("1.000000001")).catch((e) => e);
      expect(failure).toBeInstanceOf(ServiceError);
      expect(failure).toMatchObject({ kind: "insufficient_credits", code: "insufficient_credits" });
      expect(await services.ledger.balance(orgId)).toBe(usd("1"));
      const held = await services.database.db.query
        .selectFrom("reservations")
        .select("id")
        .where("organization_id", "=", orgId)
        .execute();
      expect(held).toEqual([]);
      // Exactly the balance is fine.
      await services.ledger.reserve(orgId, usd("1"));
      expect(await services.ledger.balance(orgId)).toBe(0);
    });

    it("settles the actual cost and returns the rest of the hold", async () => {
      const orgId = await orgWith("10");
      const reservation = await services.ledger.reserve(orgId, usd("4"));
      const settled = await services.ledger.settle(reservation, usd("1.5"), {
        reference: "chatcmpl-1",
        memo: "completion",
      });
      expect(settled).toEqual({ chargedNanos: usd("1.5"), balanceNanos: usd("8.5") });
      expect(await services.ledger.balance(orgId)).toBe(usd("8.5"));
      const charge = (await services.ledger.entries(orgId)).at(-1);
      expect(charge).toMatchObject({
        kind: "charge",
        amount_nanos: -usd("1.5"),
        balance_after_nanos: usd("8.5"),
        reference: "chatcmpl-1",
        memo: "completion",
      });
      expect(await reservationRow(reservation.id)).toMatchObject({
        status: "settled",
        charged_nanos: usd("1.5"),
        finished_at: expect.any(Number),
      });
      await expectInvariant(orgId);
    });

    it("settles a free piece of work without a charge entry", async () => {
      const orgId = await orgWith("2");
      const reservation = await services.ledger.reserve(orgId, usd("2"));
      expect(await services.ledger.settle(reservation, 0)).toEqual({
        chargedNanos: 0,
        balanceNanos: usd("2"),
      });
      expect((await services.ledger.entries(orgId)).map((e) => e.kind)).toEqual(["topup"]);
    });

    it("charges beyond the hold while the balance covers it", async () => {
      const orgId = await orgWith("5");
      const reservation = await services.ledger.reserve(orgId, usd("1"));
      const settled = await services.ledger.settle(reservation, usd("3"));
      expect(settled).toEqual({ chargedNanos: usd("3"), balanceNanos: usd("2") });
      await expectInvariant(orgId);
    });

    it("caps a charge above the hold so the balance stops at zero", async () => {
      const orgId = await orgWith("1.5");
      const reservation = await services.ledger.reserve(orgId, usd("1"));
      const settled = await services.ledger.settle(reservation, usd("7"));
      expect(settled).toEqual({ chargedNanos: usd("1.5"), balanceNanos: 0 });
      expect(await services.ledger.balance(orgId)).toBe(0);
      expect((await services.ledger.entries(orgId)).at(-1)?.amount_nanos).toBe(-usd("1.5"));
      await expectInvariant(orgId);
    });

    it("releases the whole hold without a ledger entry", async () => {
      const orgId = await orgWith("3");
      const reservation = await services.ledger.reserve(orgId, usd("2"));
      await services.ledger.release(reservation);
      expect(await services.ledger.balance(orgId)).toBe(usd("3"));
      expect(await reservationRow(reservation.id)).toMatchObject({
        status: "released",
        charged_nanos: null,
      });
      expect((await services.ledger.entries(orgId)).map((e) => e.kind)).toEqual(["topup"]);
    });

    it("charges once however often a reservation is settled or released", async () => {
      const orgId = await orgWith("10");
      const reservation = await services.ledger.reserve(orgId, usd("3"));
      await services.ledger.settle(reservation, usd("2"));
      expect(await services.ledger.settle(reservation, usd("2"))).toEqual({
        chargedNanos: 0,
        balanceNanos: usd("8"),
      });
      await services.ledger.release(reservation);
      expect(await services.ledger.balance(orgId)).toBe(usd("8"));
      expect((await services.ledger.entries(orgId)).map((e) => e.kind)).toEqual([
        "topup",
        "charge",
      ]);

      const released = await services.ledger.reserve(orgId, usd("3"));
      await services.ledger.release(released);
      await services.ledger.release(released);
      expect(await services.ledger.settle(released, usd("1"))).toMatchObject({ chargedNanos: 0 });
      expect(await services.ledger.balance(orgId)).toBe(usd("8"));
      expect(await reservationRow(released.id)).toMatchObject({ status: "released" });
      await expectInvariant(orgId);
    });

    it("rejects a negative or fractional settlement and leaves the hold in place", async () => {
      const orgId = await orgWith("2");
      const reservation = await services.ledger.reserve(orgId, usd("1"));
      await expect(services.ledger.settle(reservation, -1)).rejects.toThrow(RangeError);
      await expect(services.ledger.settle(reservation, 1.5)).rejects.toThrow(RangeError);
      expect(await reservationRow(reservation.id)).toMatchObject({ status: "held" });
      await services.ledger.release(reservation);
      expect(await services.ledger.balance(orgId)).toBe(usd("2"));
    });
  });

  describe("ledger entries", () => {
    it("are append-only: later movements never change earlier rows", async () => {
      const orgId = await orgWith("10");
      const first = await services.ledger.reserve(orgId, usd("1"));
      await services.ledger.settle(first, usd("0.4"), { reference: "a" });
      const before = await services.ledger.entries(orgId);

      const second = await services.ledger.reserve(orgId, usd("2"));
      await services.ledger.settle(second, usd("1.1"), { reference: "b" });
      await services.ledger.credit(orgId, usd("5"), "adjustment", { reference: "c" });
      const third = await services.ledger.reserve(orgId, usd("1"));
      await services.ledger.release(third);
      const after = await services.ledger.entries(orgId);

      expect(after.slice(0, before.length)).toEqual(before);
      expect(after.map((e) => [e.kind, e.amount_nanos, e.reference])).toEqual([
        ["topup", usd("10"), null],
        ["charge", -usd("0.4"), "a"],
        ["charge", -usd("1.1"), "b"],
        ["adjustment", usd("5"), "c"],
      ]);
      const ids = after.map((e) => e.id);
      expect([...ids].sort((a, b) => a - b)).toEqual(ids);
      expect(new Set(ids).size).toBe(ids.length);
      expect(after.at(-1)?.balance_after_nanos).toBe(await services.ledger.balance(orgId));
      await expectInvariant(orgId);
    });
  });
});
