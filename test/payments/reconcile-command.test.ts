import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runInProcess } from "../support/cli-in-process.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { FakeNode } from "./support/fake-node.js";
import { attributionMemo } from "./support/payment-flow.js";
import {
  PAYMENT_SECRET,
  REALM,
  RECIPIENT,
  startTopupServer,
  type TopupServer,
} from "./support/topup-server.js";

const PAYER = "0x6666666666666666666666666666666666666666";

describe.each(["sqlite", "postgres"] as const)("sibyl payments reconcile, on %s", (dialect) => {
  let node: FakeNode;
  let database: TestDatabase | null = null;
  let server: TopupServer;

  beforeAll(async () => {
    node = await new FakeNode().start();
    if (dialect === "postgres") database = await createTestDatabase();
    server = await startTopupServer({
      rpcUrl: node.url,
      ...(database ? { databaseUrl: database.url } : {}),
    });
  });

  afterAll(async () => {
    await server?.close();
    await database?.drop();
    await node?.stop();
  });

  const reconcile = (...flags: string[]) =>
    runInProcess(["payments", "reconcile", "--config", server.configFile, ...flags], {
      TEST_PAYMENT_SECRET: PAYMENT_SECRET,
      SIBYL_DATA_DIR: server.dataDir,
      ...(database ? { SIBYL_DATABASE_URL: database.url } : {}),
    });

  it("credits a payment that landed uncredited, once, from a date or from where it stopped", async () => {
    const hash = node.mineTransfer({
      from: PAYER,
      to: RECIPIENT,
      amount: 3_000_000n,
      memo: attributionMemo("a-challenge-never-presented", REALM),
    });
    const since = new Date(Date.now() - 2 * 3600 * 1000).toISOString().slice(0, 10);
    const first = await reconcile("--since", since);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ credited: 0, unclaimed: 1 });
    const held = await server.services.database.db.query
      .selectFrom("unclaimed_payments")
      .selectAll()
      .where("reference", "=", `chain:${hash}`)
      .execute();
    expect(held).toMatchObject([{ amount_cents: expect.anything(), claimed_at: null }]);
    expect(Number(held[0]?.amount_cents)).toBe(300);
    const next = await reconcile();
    expect(JSON.parse(next.stdout)).toMatchObject({ scanned: [], unclaimed: 0 });
    const again = await reconcile("--since", since);
    expect(JSON.parse(again.stdout)).toMatchObject({ unclaimed: 0, already_credited: 1 });
  });

  it("refuses a date it cannot read, or one to come, with its usage", async () => {
    for (const since of ["yesterday", "2026-13-45", "1e12", "2999-01-01", ""]) {
      const run = await reconcile("--since", since);
      expect(run.code, since).toBe(2);
      expect(run.stderr).toContain("--since");
    }
  });

  it("says so when the chain node cannot be reached, and credits nothing", async () => {
    await node.stop();
    try {
      const run = await reconcile();
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/^sibyl: The chain node could not be reached/);
    } finally {
      await node.start();
    }
  });
});
