import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { numberedQuery } from "../../src/db/plain-statement.js";
import type { Services } from "../../src/services.js";
import { BOTH_DATABASES, type DatabaseUnderTest } from "../support/databases.js";

describe("numbering a plain statement's placeholders for PostgreSQL", () => {
  it("numbers every ? in order and keeps the parameters", () => {
    const query = numberedQuery({ sql: "select ?, ? where x = ?", parameters: [1, "a", null] });
    expect(query.sql).toBe("select $1, $2 where x = $3");
    expect(query.parameters).toEqual([1, "a", null]);
  });

  it("gives each use of a text its own parameters", () => {
    const text = "select ? as value";
    expect(numberedQuery({ sql: text, parameters: [1] }).parameters).toEqual([1]);
    expect(numberedQuery({ sql: text, parameters: [2] }).parameters).toEqual([2]);
  });
});

describe.each(BOTH_DATABASES)("plain statements on $name", (kind) => {
  let database: DatabaseUnderTest;
  let services: Services;

  beforeAll(async () => {
    database = await kind.create();
    services = await database.open();
  });
  afterAll(() => database.dispose());

  it("write, count what they changed and read back, in and out of transactions", async () => {
    const { db } = services.database;
    const org = await services.organizations.create("plain statements");
    const credit = "update organizations set balance_nanos = balance_nanos + ? where id = ?";
    expect(await db.changes({ sql: credit, parameters: [700, org.id] })).toBe(1);
    expect(await db.changes({ sql: credit, parameters: [700, "org_missing"] })).toBe(0);
    await db.transaction(async (tx) => {
      await tx.changes({ sql: credit, parameters: [300, org.id] });
    });
    const rows = await db.rows<{ balance_nanos: number; name: string }>({
      sql: "select balance_nanos, name from organizations where id = ?",
      parameters: [org.id],
    });
    expect(rows).toEqual([{ balance_nanos: 1000, name: "plain statements" }]);
  });
});
