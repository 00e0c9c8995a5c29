import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { connectDatabase } from "../../src/db/connect.js";
import { migrateUpTo } from "../../src/db/migrate.js";
import { createTestDatabase } from "../support/postgres.js";
import { openServices, sqliteUrl } from "../support/services.js";
import { TempDirs } from "../support/temp-dir.js";

const temp = new TempDirs();
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
  temp.removeAll();
});

const KINDS = [
  { name: "sqlite", url: async (dataDir: string) => sqliteUrl(dataDir) },
  {
    name: "postgres",
    url: async () => {
      const database = await createTestDatabase({ empty: true });
      cleanups.push(() => database.drop());
      return database.url;
    },
  },
];

describe.each(KINDS)("ledger entries of an older release on $name", (kind) => {
  it("get public ids once migrated, and page like new ones", async () => {
    const dataDir = temp.make("sibyl-ledger-ids-");
    const url = await kind.url(dataDir);
    const old = connectDatabase(url);
    try {
      await migrateUpTo(old, "0014_payment_records");
      await sql`insert into organizations (id, name, balance_nanos, created_at)
        values ('org_old', 'old', 6000, 1)`.execute(old.kysely);
      for (const id of [1, 2, 3]) {
        await sql`insert into ledger_entries
          (id, organization_id, kind, amount_nanos, balance_after_nanos, reference, memo, created_at)
          values (${id}, 'org_old', 'topup', ${id * 1000}, ${id * 1000}, ${`ref_${id}`}, null, ${id})`.execute(
          old.kysely,
        );
      }
      if (kind.name === "postgres") {
        await sql`select setval(pg_get_serial_sequence('ledger_entries', 'id'), 3)`.execute(
          old.kysely,
        );
      }
    } finally {
      await old.close();
    }

    const services = await openServices(url, dataDir);
    cleanups.unshift(() => services.close());
    await services.ledger.credit("org_old", 4_000, "topup", { reference: "ref_new" });
    const seen: { id: string; reference: string | null }[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await services.ledgerHistory.page("org_old", { limit: 1, after });
      seen.push(...page.entries.map(({ id, reference }) => ({ id, reference })));
      if (!page.hasMore) break;
      after = page.entries.at(-1)?.id;
    }
    expect(seen.map((entry) => entry.reference)).toEqual(["ref_new", "ref_3", "ref_2", "ref_1"]);
    for (const { id } of seen) expect(id).toMatch(/^le_[0-9A-Za-z]{22}$/);
    expect(new Set(seen.map((entry) => entry.id)).size).toBe(4);
  });
});
