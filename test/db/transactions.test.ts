import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Services } from "../../src/services.js";
import { usdToNanos } from "../../src/util/money.js";
import { BOTH_DATABASES, type DatabaseUnderTest } from "../support/databases.js";

const usd = usdToNanos;

/** Service calls that write inside another service's transaction join it (savepoints). */
describe.each(BOTH_DATABASES)("composed transactions on $name", (kind) => {
  let database: DatabaseUnderTest;
  let services: Services;

  beforeAll(async () => {
    database = await kind.create();
    services = await database.open();
  });

  afterAll(async () => {
    await database?.dispose();
  });

  const countOrganizations = async (name: string) =>
    (
      await services.database.db.query
        .selectFrom("organizations")
        .select("id")
        .where("name", "=", name)
        .execute()
    ).length;

  it("opens an account (organization, key, credits) as one service call", async () => {
    const opened = await services.accounts.open({ name: "atomic", creditsNanos: usd("5") });
    expect(opened.balanceNanos).toBe(usd("5"));
    expect(await services.ledger.balance(opened.organization.id)).toBe(usd("5"));
    const principal = await services.apiKeys.authenticate(opened.key.api_key);
    expect(principal?.organizationId).toBe(opened.organization.id);
    const entries = await services.ledger.entries(opened.organization.id);
    expect(entries.map((entry) => [entry.kind, entry.amount_nanos])).toEqual([
      ["adjustment", usd("5")],
    ]);
  });

  it("undoes the whole account when the caller's transaction fails after it", async () => {
    let key = "";
    await expect(
      services.database.db.transaction(async (tx) => {
        const opened = await services.accounts.open(
          { name: "rolled back", creditsNanos: usd("3"), creditKind: "topup" },
          tx,
        );
        key = opened.key.api_key;
        // Inside the transaction every part is visible, on PostgreSQL too.
        expect(await services.ledger.balance(opened.organization.id, tx)).toBe(usd("3"));
        throw new Error("payment could not be recorded");
      }),
    ).rejects.toThrow("payment could not be recorded");
    expect(await countOrganizations("rolled back")).toBe(0);
    expect(await services.apiKeys.authenticate(key)).toBeNull();
  });

  it("undoes only the inner call when it fails and the caller carries on", async () => {
    const organizationId = await services.database.db.transaction(async (tx) => {
      const organization = await services.organizations.create("outer survives", tx);
      await services.ledger.credit(organization.id, usd("2"), "adjustment", {}, tx);
      await expect(
        tx.transaction(async (inner) => {
          await services.ledger.credit(organization.id, usd("7"), "adjustment", {}, inner);
          await services.apiKeys.issue(organization.id, inner);
          throw new Error("inner step failed");
        }),
      ).rejects.toThrow("inner step failed");
      await services.ledger.credit(organization.id, usd("1"), "adjustment", {}, tx);
      return organization.id;
    });
    expect(await services.ledger.balance(organizationId)).toBe(usd("3"));
    expect(await services.apiKeys.list(organizationId)).toEqual([]);
    expect((await services.ledger.entries(organizationId)).map((e) => e.amount_nanos)).toEqual([
      usd("2"),
      usd("1"),
    ]);
  });

  it("runs side-by-side nested transactions one after the other", async () => {
    const organizationId = await services.database.db.transaction(async (tx) => {
      const organization = await services.organizations.create("side by side", tx);
      const outcomes = await Promise.allSettled(
        [1, 2, 3, 4].map((dollars) =>
          tx.transaction(async (inner) => {
            await services.ledger.credit(
              organization.id,
              usd(String(dollars)),
              "adjustment",
              {},
              inner,
            );
            if (dollars % 2 === 0) throw new Error(`refused ${dollars}`);
          }),
        ),
      );
      expect(outcomes.map((outcome) => outcome.status)).toEqual([
        "fulfilled",
        "rejected",
        "fulfilled",
        "rejected",
      ]);
      return organization.id;
    });
    expect(await services.ledger.balance(organizationId)).toBe(usd("4"));
  });

  it("keeps other work going while transactions nest (no deadlock)", async () => {
    const org = await services.accounts.open({ name: "busy", creditsNanos: usd("10") });
    const id = org.organization.id;
    const work = Array.from({ length: 20 }, (_, index) =>
      index % 2 === 0
        ? services.database.db.transaction(async (tx) => {
            const hold = await services.ledger.reserve(id, usd("0.1"), null, tx);
            await services.ledger.settle(hold, usd("0.05"), {}, tx);
          })
        : services.ledger.balance(id),
    );
    await Promise.all(work);
    expect(await services.ledger.balance(id)).toBe(usd("9.5"));
    const [row] = await services.database.db.rows<{ n: number }>(
      sql`select count(*) as n from reservations where organization_id = ${id} and status = 'held'`,
    );
    expect(Number(row?.n)).toBe(0);
  });
});
