import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { spendableStatement } from "../../src/billing/spendable.js";
import { connectDatabase, type DatabaseHandle } from "../../src/db/connect.js";
import { migrateToLatest, migrateUpTo } from "../../src/db/migrate.js";
import { BOTH_DATABASES, type DatabaseUnderTest, postgresDatabase } from "../support/databases.js";
import { openServices, sqliteUrl } from "../support/services.js";
import { TempDirs } from "../support/temp-dir.js";

const opened: DatabaseUnderTest[] = [];
const handles: DatabaseHandle[] = [];
const temp = new TempDirs();

afterEach(async () => {
  for (const database of opened.splice(0)) await database.dispose();
  for (const handle of handles.splice(0)) await handle.close();
  temp.removeAll();
});

/** A database no migration has run on. */
async function fresh(kind: (typeof BOTH_DATABASES)[number]): Promise<DatabaseUnderTest> {
  const database = await kind.create({ empty: true });
  opened.push(database);
  return database;
}

describe.each(BOTH_DATABASES)("migrations on $name", (kind) => {
  it("apply once and are a no-op afterwards", async () => {
    const database = await fresh(kind);
    const services = await database.open();
    expect(await migrateToLatest(services.database)).toEqual({ applied: [] });
    const rows = await sql<{
      name: string;
    }>`select name from kysely_migration order by name`.execute(services.database.kysely);
    const names = rows.rows.map((row) => row.name);
    expect(names[0]).toBe("0001_foundation");
    expect(new Set(names).size).toBe(names.length);
  });

  it("let a settlement read its organization's open leases without the other organizations'", async () => {
    const database = await fresh(kind);
    const services = await database.open();
    const statement = spendableStatement("org_one");
    const text = statement.sql.replace("?", "'org_one'");
    const plan = await services.database.db.transaction(async (tx) => {
      if (tx.dialect === "sqlite") {
        const rows = await tx.rows<{ detail: string }>(sql`explain query plan ${sql.raw(text)}`);
        return rows.map((row) => row.detail).join("\n");
      }
      // Tables this small are read whole either way: ask whether the index can serve the read.
      await tx.rows(sql`set local enable_seqscan = off`);
      const rows = await tx.rows<{ "QUERY PLAN": string }>(sql`explain ${sql.raw(text)}`);
      return rows.map((row) => row["QUERY PLAN"]).join("\n");
    });
    expect(plan).toContain("reservations_organization_held");
  });

  it("let the database itself refuse a negative balance", async () => {
    const database = await fresh(kind);
    const services = await database.open();
    const org = await services.organizations.create("constraint");
    await expect(
      services.database.db.query
        .updateTable("organizations")
        .set({ balance_nanos: -1 })
        .where("id", "=", org.id)
        .execute(),
    ).rejects.toThrow(/organizations_balance_non_negative|CHECK constraint/i);
  });

  it("refuse a second key with the same digest", async () => {
    const database = await fresh(kind);
    const services = await database.open();
    const org = await services.organizations.create("unique digests");
    const row = {
      organization_id: org.id,
      key_hash: "a".repeat(64),
      prefix: "sk_aaaaaaa",
      created_at: 0,
      revoked_at: null,
    };
    await services.database.db.query
      .insertInto("api_keys")
      .values({ id: "key_one", ...row })
      .execute();
    await expect(
      services.database.db.query
        .insertInto("api_keys")
        .values({ id: "key_two", ...row })
        .execute(),
    ).rejects.toThrow(/unique/i);
  });
});

describe("migrations on postgres from several processes at once", () => {
  it("run once and leave every process with the schema", async () => {
    const database = await fresh(postgresDatabase);
    const all = await Promise.all([0, 1, 2, 3].map(() => database.open()));
    const first = all[0];
    if (!first) throw new Error("no services opened");
    const rows = await sql<{ name: string }>`select name from kysely_migration`.execute(
      first.database.kysely,
    );
    const names = rows.rows.map((row) => row.name);
    expect(new Set(names).size).toBe(names.length);
    for (const services of all) {
      const org = await services.organizations.create("after concurrent migration");
      expect(await services.ledger.balance(org.id)).toBe(0);
    }
  });
});

describe("the rebuild of appended tables on sqlite", () => {
  const APPENDED = ["ledger_entries", "usage_records"];

  interface SchemaRow {
    type: string;
    name: string;
    tbl_name: string;
    sql: string;
  }

  const schemaOf = async (handle: DatabaseHandle) =>
    (
      await sql<SchemaRow>`
        select type, name, tbl_name, sql from sqlite_master
        where tbl_name in ('ledger_entries', 'usage_records') and sql is not null
        order by name`.execute(handle.kysely)
    ).rows;

  const sequenced = async (handle: DatabaseHandle) =>
    (
      await sql<{ name: string }>`
        select name from sqlite_sequence
        where name in ('ledger_entries', 'usage_records')`.execute(handle.kysely)
    ).rows.map((row) => row.name);

  it("keeps every row, id and index, and new rows number on from the largest id", async () => {
    const dataDir = temp.make("sibyl-migrate-");
    const url = sqliteUrl(dataDir);
    const old = connectDatabase(url);
    handles.push(old);
    await migrateUpTo(old, "0011_held_by_organization");
    const before = await schemaOf(old);
    expect(before.filter((row) => row.type === "table").map((row) => row.sql)).toEqual([
      expect.stringMatching(/autoincrement/i),
      expect.stringMatching(/autoincrement/i),
    ]);
    await sql`insert into organizations (id, name, balance_nanos, created_at)
      values ('org_old', 'old', 0, 1)`.execute(old.kysely);
    // Gaps, as a release that used AUTOINCREMENT may leave after rolled-back inserts.
    for (const id of [1, 2, 7]) {
      await sql`insert into ledger_entries
        (id, organization_id, kind, amount_nanos, balance_after_nanos, reference, memo, created_at)
        values (${id}, 'org_old', 'topup', ${id * 1000}, ${id * 1000}, ${`ref_${id}`}, null, ${id})`.execute(
        old.kysely,
      );
      await sql`insert into usage_records
        (id, organization_id, api_key_id, model, input_tokens, output_tokens, cost_nanos, created_at)
        values (${id}, 'org_old', null, 'm', ${id}, ${id}, ${id}, ${id})`.execute(old.kysely);
    }
    const rowsBefore = await sql`select * from ledger_entries order by id`.execute(old.kysely);
    const usageBefore = await sql`select * from usage_records order by id`.execute(old.kysely);

    expect(await migrateUpTo(old, "0012_plain_row_ids")).toEqual({
      applied: ["0012_plain_row_ids"],
    });

    const after = await schemaOf(old);
    expect(after.map((row) => [row.type, row.name])).toEqual(
      before.map((row) => [row.type, row.name]),
    );
    for (const row of after.filter((entry) => entry.type === "index")) {
      expect(row.sql).toBe(before.find((entry) => entry.name === row.name)?.sql);
    }
    for (const row of after.filter((entry) => entry.type === "table")) {
      expect(row.sql).not.toMatch(/autoincrement/i);
      expect(row.sql).toMatch(new RegExp(`^create table "${row.tbl_name}"`, "i"));
    }
    expect(await sequenced(old)).toEqual([]);
    expect((await sql`select * from ledger_entries order by id`.execute(old.kysely)).rows).toEqual(
      rowsBefore.rows,
    );
    expect((await sql`select * from usage_records order by id`.execute(old.kysely)).rows).toEqual(
      usageBefore.rows,
    );

    const services = await openServices(url, dataDir);
    try {
      await services.ledger.credit("org_old", 5_000, "topup", { reference: "after" });
    } finally {
      await services.close();
    }
    const newest = await sql<{ id: number; reference: string }>`
      select id, reference from ledger_entries order by id desc limit 1`.execute(old.kysely);
    expect(newest.rows).toEqual([{ id: 8, reference: "after" }]);
    expect(await sequenced(old)).toEqual([]);
  });

  it("leaves a new database's appended tables without a sequence to rewrite", async () => {
    const handle = connectDatabase(sqliteUrl(temp.make("sibyl-migrate-")));
    handles.push(handle);
    await migrateToLatest(handle);
    const tables = (await schemaOf(handle)).filter((row) => row.type === "table");
    expect(tables.map((row) => row.name)).toEqual(APPENDED);
    for (const table of tables) expect(table.sql).not.toMatch(/autoincrement/i);
  });
});
