import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectDatabase, type DatabaseHandle } from "../../src/db/connect.js";
import { StatementNames } from "../../src/db/prepared-statements.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";

describe("statement names", () => {
  it("names a text on its third run, and keeps that name", () => {
    const names = new StatementNames();
    expect([names.nameFor("select 1"), names.nameFor("select 1")]).toEqual([undefined, undefined]);
    const name = names.nameFor("select 1");
    expect(name).toMatch(/^sibyl_\d+$/);
    expect(names.nameFor("select 1")).toBe(name);
    for (let run = 0; run < 3; run++) names.nameFor("select 2");
    expect(names.nameFor("select 2")).not.toBe(name);
  });

  it("names at most 200 texts, and keeps the names it gave", () => {
    const names = new StatementNames();
    const first = ["select 0", "select 0", "select 0"].map((text) => names.nameFor(text))[2];
    for (let text = 1; text < 250; text++) {
      for (let run = 0; run < 3; run++) names.nameFor(`select ${text}`);
    }
    expect(names.nameFor("select 199")).toMatch(/^sibyl_\d+$/);
    expect(names.nameFor("select 200")).toBeUndefined();
    expect(names.nameFor("select 0")).toBe(first);
  });
});

describe("prepared statements on PostgreSQL", () => {
  let database: TestDatabase;
  const handles: DatabaseHandle[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
  });

  afterAll(async () => {
    for (const handle of handles) await handle.close();
    await database?.drop();
  });

  /** One connection, so that the session's prepared statements are the ones asked about. */
  function connect(preparedStatements?: boolean): DatabaseHandle {
    const handle = connectDatabase(database.url, {
      poolSize: 1,
      ...(preparedStatements === undefined ? {} : { preparedStatements }),
    });
    handles.push(handle);
    return handle;
  }

  const square = (value: number) =>
    sql<{ square: number }>`select ${value}::int * ${value}::int as square`;

  async function preparedTexts(handle: DatabaseHandle): Promise<string[]> {
    const rows = await handle.db.rows<{ statement: string }>(
      sql`select statement from pg_prepared_statements`,
    );
    return rows.map((row) => row.statement);
  }

  it("prepares a statement that repeats, and answers each run with its own values", async () => {
    const handle = connect();
    const squares = [];
    for (let value = 1; value <= 5; value++) {
      squares.push((await handle.db.rows(square(value)))[0]?.square);
    }
    expect(squares).toEqual([1, 4, 9, 16, 25]);
    expect(await preparedTexts(handle)).toContain("select $1::int * $2::int as square");
    // Inside a transaction, through the query builder too.
    const counted = await handle.db.transaction(async (tx) => {
      const results = [];
      for (let run = 0; run < 4; run++) {
        results.push(await tx.rows(square(run)));
      }
      return results.map((rows) => rows[0]?.square);
    });
    expect(counted).toEqual([0, 1, 4, 9]);
  });

  it("prepares nothing when turned off", async () => {
    const handle = connect(false);
    for (let value = 1; value <= 5; value++) await handle.db.rows(square(value));
    expect(await preparedTexts(handle)).toEqual([]);
  });

  it("answers with the new columns after a migration adds one to a table it selects from", async () => {
    const handle = connect();
    await handle.db.changes(sql`create table gauges (reading int)`);
    await handle.db.changes(sql`insert into gauges values (1)`);
    const everything = () => handle.db.rows(sql`select * from gauges`);
    for (let run = 0; run < 3; run++) expect(await everything()).toEqual([{ reading: 1 }]);
    expect(await preparedTexts(handle)).toContain("select * from gauges");
    // As another version's migration would, while this process runs.
    const other = connect(false);
    await other.db.changes(sql`alter table gauges add column unit text default 'mm'`);
    expect(await everything()).toEqual([{ reading: 1, unit: "mm" }]);
    expect(await everything()).toEqual([{ reading: 1, unit: "mm" }]);
    // Inside a transaction the first run after a change fails it; the next one works.
    const positive = () =>
      handle.db.transaction((tx) => tx.rows(sql`select * from gauges where reading > 0`));
    for (let run = 0; run < 3; run++) await positive();
    await other.db.changes(sql`alter table gauges add column site text default 'north'`);
    await expect(positive()).rejects.toThrow(/cached plan must not change result type/);
    expect(await positive()).toEqual([{ reading: 1, unit: "mm", site: "north" }]);
  });

  it("reports a failing statement each time it runs, and goes on working", async () => {
    const handle = connect();
    for (let run = 0; run < 4; run++) {
      await expect(handle.db.rows(sql`select * from no_such_table`)).rejects.toThrow(
        /no_such_table/,
      );
    }
    expect((await handle.db.rows(square(7)))[0]?.square).toBe(49);
  });
});
