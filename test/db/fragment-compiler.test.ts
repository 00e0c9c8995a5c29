import {
  DummyDriver,
  Kysely,
  type RawBuilder,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  sql,
} from "kysely";
import { describe, expect, it } from "vitest";
import { compileFragments } from "../../src/db/fragment-compiler.js";

// Kysely's own SQLite compiler, with no database behind it: the reference.
const kysely = new Kysely<Record<string, never>>({
  dialect: {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  },
});

function reference(statement: RawBuilder<unknown>) {
  const compiled = statement.compile(kysely);
  return { sql: compiled.sql, parameters: [...compiled.parameters] };
}

describe("compiling sql templates for SQLite", () => {
  const rows = [
    { id: "org_1", amount: -1200, memo: null, at: 1_700_000_000 },
    { id: "org_2", amount: 0, memo: "research: news", at: 1_700_000_001 },
  ];
  const statements: [string, RawBuilder<unknown>][] = [
    ["no values", sql`select 1`],
    ["a value at each end", sql`${1} + ${"two"} + ${null}`],
    [
      "values of every kind",
      sql`select ${0}, ${-3.5}, ${"it's"}, ${null}, ${Buffer.from("ab")}, ${10n}`,
    ],
    [
      "a nested template",
      sql`update reservations set amount_nanos = amount_nanos + ${5}
        where id = ${"lse_1"} and status = 'held'${sql` and owner = ${"p"}`}`,
    ],
    ["an empty nested template", sql`select * from t where a = ${1}${sql``}`],
    [
      "joined rows",
      sql`insert into ledger_entries (organization_id, amount_nanos, memo, created_at)
        values ${sql.join(rows.map((row) => sql`(${row.id}, ${row.amount}, ${row.memo}, ${row.at})`))}`,
    ],
    ["joined values with a separator", sql`select ${sql.join([1, 2, 3], sql` union select `)}`],
    ["raw text", sql`select * from ${sql.raw("organizations")} where id = ${"x"}`],
  ];

  it.each(statements)("matches Kysely's compiler: %s", (_name, statement) => {
    expect(compileFragments(statement)).toEqual(reference(statement));
  });

  it.each([
    ["a reference", sql`select ${sql.ref("organizations.id")} from organizations`],
    ["a literal written into the text", sql`select ${sql.lit(5)}`],
    ["an identifier", sql`select * from ${sql.table("organizations")}`],
    ["a reference inside a nested template", sql`select 1 where ${sql`${sql.ref("a")} = ${1}`}`],
  ])("leaves %s to Kysely", (_name, statement) => {
    expect(compileFragments(statement)).toBeNull();
  });
});
