import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Services } from "../../src/services.js";
import { BOTH_DATABASES, type DatabaseUnderTest, sqliteDatabase } from "../support/databases.js";

describe.each(BOTH_DATABASES)("hand-written statements on $name", (kind) => {
  let database: DatabaseUnderTest;
  let services: Services;

  beforeAll(async () => {
    database = await kind.create();
    services = await database.open();
  });

  afterAll(async () => {
    await database?.dispose();
  });

  async function newOrganization(): Promise<string> {
    return (await services.organizations.create(`statements ${kind.name}`)).id;
  }

  function balanceOf(id: string) {
    return services.database.db.rows<{ balance_nanos: number }>(
      sql`select balance_nanos from organizations where id = ${id}`,
    );
  }

  it("returns rows, with `returning` too, and counts changed rows", async () => {
    const id = await newOrganization();
    const statements = services.database.db;
    expect(await balanceOf(id)).toEqual([{ balance_nanos: 0 }]);
    expect(
      await statements.rows<{ balance_nanos: number }>(
        sql`update organizations set balance_nanos = 7 where id = ${id} returning balance_nanos`,
      ),
    ).toEqual([{ balance_nanos: 7 }]);
    expect(
      await statements.changes(sql`update organizations set name = 'x' where id = ${id}`),
    ).toBe(1);
    expect(
      await statements.changes(sql`update organizations set name = 'x' where id = 'none'`),
    ).toBe(0);
  });

  it("commits a transaction's statements together, and rolls all of them back on a throw", async () => {
    const id = await newOrganization();
    const statements = services.database.db;
    const setBalance = (nanos: number) =>
      sql`update organizations set balance_nanos = ${nanos} where id = ${id}`;
    await statements.transaction(async (tx) => {
      await tx.changes(setBalance(5));
      await tx.changes(sql`update organizations set name = 'committed' where id = ${id}`);
    });
    expect(await balanceOf(id)).toEqual([{ balance_nanos: 5 }]);
    await expect(
      statements.transaction(async (tx) => {
        await tx.changes(setBalance(9));
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    expect(await balanceOf(id)).toEqual([{ balance_nanos: 5 }]);
    await expect(
      statements.transaction((tx) => tx.changes(sql`insert into no_such_table values (1)`)),
    ).rejects.toThrow(/no_such_table/);
    // The connection is usable afterwards, inside and outside transactions.
    await statements.transaction((tx) => tx.changes(setBalance(6)));
    expect(await balanceOf(id)).toEqual([{ balance_nanos: 6 }]);
  });

  it("never interleaves other queries with an open transaction", async () => {
    const id = await newOrganization();
    const statements = services.database.db;
    const db = statements.query;
    let release = () => {};
    const paused = new Promise<void>((resolve) => {
      release = resolve;
    });
    let midway = () => {};
    const reachedMidway = new Promise<void>((resolve) => {
      midway = resolve;
    });
    const transaction = statements.transaction(async (tx) => {
      await tx.changes(sql`update organizations set balance_nanos = 1 where id = ${id}`);
      midway();
      await paused;
      await tx.changes(sql`update organizations set balance_nanos = 2 where id = ${id}`);
    });
    await reachedMidway;
    // Both kinds of reader see either the state before the transaction or after it, never 1.
    const builderRead = db
      .selectFrom("organizations")
      .select("balance_nanos")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    const statementRead = balanceOf(id);
    const writer = statements.changes(
      sql`update organizations set balance_nanos = balance_nanos + 10 where id = ${id}`,
    );
    release();
    await transaction;
    await writer;
    expect([0, 2, 12]).toContain((await builderRead).balance_nanos);
    expect([0, 2, 12]).toContain((await statementRead)[0]?.balance_nanos);
    expect(await balanceOf(id)).toEqual([{ balance_nanos: 12 }]);
  });

  it("keeps concurrent transactions apart: one that throws undoes only its own writes", async () => {
    const ids = [await newOrganization(), await newOrganization(), await newOrganization()];
    const statements = services.database.db;
    const add = (id: string, nanos: number) =>
      sql`update organizations set balance_nanos = balance_nanos + ${nanos} where id = ${id}`;
    // Started together, as requests handled in one turn of the event loop are.
    const outcomes = await Promise.allSettled(
      ids.map((id, index) =>
        statements.transaction(async (tx) => {
          await tx.changes(add(id, 100));
          await tx.changes(add(ids[0] as string, 1));
          if (index === 1) throw new Error("second one fails");
          await tx.changes(add(id, 10));
          return index;
        }),
      ),
    );
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      "fulfilled",
      "rejected",
      "fulfilled",
    ]);
    expect(outcomes[2]).toEqual({ status: "fulfilled", value: 2 });
    const balances = await Promise.all(ids.map(async (id) => (await balanceOf(id))[0]));
    expect(balances).toEqual([
      { balance_nanos: 112 },
      { balance_nanos: 0 },
      { balance_nanos: 110 },
    ]);
  });
});

// Transactions requested together share one SQLite commit (see sqlite-database.ts).
describe("grouped commits on SQLite", () => {
  let database: DatabaseUnderTest;

  beforeAll(async () => {
    database = await sqliteDatabase.create();
  });

  afterAll(async () => {
    await database?.dispose();
  });

  it("rejects every transaction of a group whose statements break the transaction", async () => {
    const services = await database.open();
    const id = (await services.organizations.create("grouped")).id;
    const statements = services.database.db;
    const balanceOf = (org: string) =>
      statements.rows<{ balance_nanos: number }>(
        sql`select balance_nanos from organizations where id = ${org}`,
      );
    const outcomes = await Promise.allSettled([
      statements.transaction((tx) =>
        tx.changes(sql`update organizations set balance_nanos = 5 where id = ${id}`),
      ),
      // Ending the transaction from inside leaves nothing to commit the group with.
      statements.transaction((tx) => tx.changes(sql`commit`)),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toContain("rejected");
    // Whatever was reported as done is durable, and the connection still works.
    const [row] = await balanceOf(id);
    if (outcomes[0]?.status === "fulfilled") expect(row?.balance_nanos).toBe(5);
    await statements.transaction((tx) =>
      tx.changes(sql`update organizations set balance_nanos = 6 where id = ${id}`),
    );
    expect(await balanceOf(id)).toEqual([{ balance_nanos: 6 }]);
  });

  it("lets a single failed statement fail alone", async () => {
    const services = await database.open();
    const id = (await services.organizations.create("grouped single")).id;
    const statements = services.database.db;
    const outcomes = await Promise.allSettled([
      statements.changes(sql`update organizations set balance_nanos = 3 where id = ${id}`),
      statements.changes(sql`insert into organizations (id) values (${id})`),
      statements.transaction((tx) =>
        tx.changes(sql`update organizations set name = 'kept' where id = ${id}`),
      ),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      "fulfilled",
      "rejected",
      "fulfilled",
    ]);
    const [row] = await statements.rows<{ balance_nanos: number; name: string }>(
      sql`select balance_nanos, name from organizations where id = ${id}`,
    );
    expect(row).toEqual({ balance_nanos: 3, name: "kept" });
  });

  it("never lets members run on their own once the group's transaction has ended", async () => {
    const services = await database.open();
    const id = (await services.organizations.create("grouped ended")).id;
    const statements = services.database.db;
    const outcomes = await Promise.allSettled([
      statements.changes(sql`commit`),
      statements.transaction((tx) =>
        tx.changes(sql`update organizations set balance_nanos = 7 where id = ${id}`),
      ),
    ]);
    expect(outcomes[1]?.status).toBe("rejected");
    const [row] = await statements.rows<{ balance_nanos: number }>(
      sql`select balance_nanos from organizations where id = ${id}`,
    );
    expect(row?.balance_nanos).toBe(0);
  });
});
