import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Services } from "../../src/services.js";
import { BOTH_DATABASES, type DatabaseUnderTest } from "./support/databases.js";

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
    return services.database.statements.rows<{ balance_nanos: number }>(
      sql`select balance_nanos from organizations where id = ${id}`,
    );
  }

  it("returns rows, with `returning` too, and counts changed rows", async () => {
    const id = await newOrganization();
    const { statements } = services.database;
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
    const { statements } = services.database;
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
    const { statements, db } = services.database;
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
});
