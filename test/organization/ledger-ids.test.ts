import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BOTH_DATABASES } from "../support/databases.js";
import { expectErrorResponse } from "../support/http.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { startTestServer, type TestOrg, type TestServer } from "../support/server.js";
import { call, type ListObject } from "./support/api.js";

interface LedgerEntry {
  id: string;
  kind: string;
  amount_usd: number;
}

const PATH = "/v1/organization/ledger";
const ROUNDS = 40;
const NANOS_PER_CENT = 10_000_000;

/** Shorter first, then by character: the order of numbers in any base, zero-padded or not. */
const idOrder = (a: string, b: string) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);

/** Pairs (i < j) whose ids sort in the same order as their entries: near half for random ids. */
function pairsInOrder(idsOldestFirst: readonly string[]): number {
  let inOrder = 0;
  for (let i = 0; i < idsOldestFirst.length; i++) {
    for (let j = i + 1; j < idsOldestFirst.length; j++) {
      if (idOrder(idsOldestFirst[i] as string, idsOldestFirst[j] as string) < 0) inOrder++;
    }
  }
  return inOrder;
}

describe.each(BOTH_DATABASES)("ledger entry ids on $name", (kind) => {
  let postgres: TestDatabase | null = null;
  let server: TestServer;
  let alice: TestOrg;
  let bob: TestOrg;

  async function list(org: TestOrg, query: string): Promise<ListObject<LedgerEntry>> {
    const response = await call(server.url, org.apiKey, "GET", `${PATH}?${query}`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body as ListObject<LedgerEntry>;
  }

  /** Every entry of an organization, read one page of `limit` at a time through `after`. */
  async function readInPages(org: TestOrg, limit: number, extra = ""): Promise<LedgerEntry[]> {
    const entries: LedgerEntry[] = [];
    let after: string | null = null;
    for (let pages = 0; pages < 1000; pages++) {
      const page = await list(org, `limit=${limit}${extra}${after ? `&after=${after}` : ""}`);
      entries.push(...page.data);
      if (!page.has_more) return entries;
      after = page.last_id;
    }
    throw new Error("paging did not end");
  }

  beforeAll(async () => {
    postgres = kind.name === "postgres" ? await createTestDatabase() : null;
    server = await startTestServer(postgres ? { databaseUrl: postgres.url } : {});
    alice = await server.createOrg();
    bob = await server.createOrg();
    // Alternate the two organizations, with a growing run of Bob's entries between Alice's: the
    // platform's activity between two of Alice's entries changes from one pair to the next.
    for (let round = 0; round < ROUNDS; round++) {
      await server.services.ledger.credit(
        alice.organizationId,
        (round + 1) * NANOS_PER_CENT,
        "adjustment",
      );
      for (let i = 0; i <= round % 5; i++) {
        const kindOfEntry = i % 2 === 0 ? "topup" : "adjustment";
        await server.services.ledger.credit(bob.organizationId, NANOS_PER_CENT, kindOfEntry);
      }
    }
  });
  afterAll(async () => {
    await server?.close();
    await postgres?.drop();
  });

  it("shows ids whose order says nothing of the entries' order, within or across organizations", async () => {
    const aliceIds = (await list(alice, "limit=100")).data.map((entry) => entry.id).reverse();
    const bobIds = (await list(bob, "limit=100")).data.map((entry) => entry.id).reverse();
    expect(aliceIds).toHaveLength(ROUNDS);
    for (const id of [...aliceIds, ...bobIds]) expect(id).toMatch(/^le_[0-9A-Za-z]{22}$/);
    expect(new Set([...aliceIds, ...bobIds]).size).toBe(aliceIds.length + bobIds.length);

    // Ids from a sequence would have every pair in order; random ones about half (sd ≈ 43).
    const pairs = (ROUNDS * (ROUNDS - 1)) / 2;
    expect(Math.abs(pairsInOrder(aliceIds) - pairs / 2)).toBeLessThan(4 * 43);
    // Neither does merging both organizations' ids recover how their entries interleaved.
    const merged = [...aliceIds, ...bobIds].sort(idOrder);
    const aliceFirsts = merged.filter(
      (id, index) => aliceIds.includes(id) && index < merged.length / 2,
    );
    expect(aliceFirsts.length).toBeGreaterThan(0);
    expect(aliceFirsts.length).toBeLessThan(ROUNDS);

    // The internal numbers appear nowhere: no id carries the row's number in any base.
    const numbers = await server.services.database.db.query
      .selectFrom("ledger_entries")
      .select("id")
      .where("organization_id", "=", alice.organizationId)
      .execute();
    for (const { id } of numbers) {
      expect(aliceIds.some((shown) => shown.endsWith(`_${id}`) || shown === `le_${id}`)).toBe(
        false,
      );
    }
  });

  it("pages through every entry exactly once, newest first, with any page size", async () => {
    const rows = await server.services.database.db.query
      .selectFrom("ledger_entries")
      .select("kind")
      .where("organization_id", "=", bob.organizationId)
      .orderBy("id", "desc")
      .execute();
    const all = await readInPages(bob, 100);
    expect(rows.length).toBeGreaterThan(100);
    expect(all.map((entry) => entry.kind)).toEqual(rows.map((row) => row.kind));
    expect(new Set(all.map((entry) => entry.id)).size).toBe(rows.length);
    for (const limit of [1, 7, 13]) {
      const paged = await readInPages(bob, limit);
      expect(paged.map((entry) => entry.id)).toEqual(all.map((entry) => entry.id));
    }
    const topups = await readInPages(bob, 6, "&kind=topup");
    expect(topups.map((entry) => entry.id)).toEqual(
      all.filter((entry) => entry.kind === "topup").map((entry) => entry.id),
    );
    // Alice's amounts grew by a cent each round: newest first means largest first.
    const amounts = (await readInPages(alice, 9)).map((entry) => entry.amount_usd);
    expect(amounts).toEqual(Array.from({ length: ROUNDS }, (_, i) => (ROUNDS - i) / 100));
  });

  it("keeps a cursor working after entries are added, and shows each entry the same id every time", async () => {
    const before = await list(alice, "limit=3");
    await server.services.ledger.credit(alice.organizationId, NANOS_PER_CENT, "adjustment");
    const rest = await list(alice, `limit=100&after=${before.last_id}`);
    expect(rest.data).toHaveLength(ROUNDS - 3);
    const again = await list(alice, "limit=4");
    expect(again.data.slice(1).map((entry) => entry.id)).toEqual(
      before.data.map((entry) => entry.id),
    );
  });

  it("rejects the retired numbered cursor with a clear 400", async () => {
    const [row] = await server.services.database.db.query
      .selectFrom("ledger_entries")
      .select("id")
      .where("organization_id", "=", alice.organizationId)
      .execute();
    for (const after of [`le_${row?.id}`, "le_1", "le_999999"]) {
      const response = await call(server.url, alice.apiKey, "GET", `${PATH}?after=${after}`);
      expectErrorResponse(response, { status: 400, code: "ledger_cursor_retired", param: "after" });
      expect(JSON.stringify(response.body)).toContain("last_id");
    }
  });

  it("answers another organization's id, and any made-up id, with 404", async () => {
    const bobs = (await list(bob, "limit=5")).data.map((entry) => entry.id);
    for (const after of bobs) {
      const response = await call(server.url, alice.apiKey, "GET", `${PATH}?after=${after}`);
      expectErrorResponse(response, {
        status: 404,
        code: "ledger_entry_not_found",
        param: "after",
      });
    }
    const base62 = fc.constantFrom(
      ..."0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
    );
    const body = fc.array(base62, { minLength: 22, maxLength: 22 }).map((chars) => chars.join(""));
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          body.map((text) => `le_${text}`),
          fc.string(),
        ),
        async (after) => {
          const response = await call(
            server.url,
            alice.apiKey,
            "GET",
            `${PATH}?after=${encodeURIComponent(after)}`,
          );
          expect([400, 404]).toContain(response.status);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe("ledger ids across installations", () => {
  it("differ for the same entry number: each installation has its own key", async () => {
    const first = await startTestServer();
    const second = await startTestServer();
    try {
      const ids: string[] = [];
      for (const server of [first, second]) {
        const org = await server.createOrg("1");
        const page = (await call(server.url, org.apiKey, "GET", PATH))
          .body as ListObject<LedgerEntry>;
        ids.push(page.data[0]?.id ?? "");
      }
      const numbers = await Promise.all(
        [first, second].map((server) =>
          server.services.database.db.query.selectFrom("ledger_entries").select("id").execute(),
        ),
      );
      expect(numbers[0]).toEqual(numbers[1]);
      expect(ids[0]).not.toBe(ids[1]);
    } finally {
      await first.close();
      await second.close();
    }
  });
});
