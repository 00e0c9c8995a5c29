import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { spendableStatement } from "../../src/billing/lease-statements.js";
import { migrateToLatest } from "../../src/db/migrate.js";
import { BOTH_DATABASES, type DatabaseUnderTest, postgresDatabase } from "./support/databases.js";

const opened: DatabaseUnderTest[] = [];

afterEach(async () => {
  for (const database of opened.splice(0)) await database.dispose();
});

async function fresh(kind: (typeof BOTH_DATABASES)[number]): Promise<DatabaseUnderTest> {
  const database = await kind.create();
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
