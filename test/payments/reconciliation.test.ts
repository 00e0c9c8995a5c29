import type { Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBatchWorker } from "../../src/cli/worker.js";
import { ManualClock } from "../support/manual-clock.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { CHAIN_ID, FakeNode } from "./support/fake-node.js";
import {
  attributionMemo,
  challengeFor,
  paymentCredential,
  postTopup,
  type WireChallenge,
} from "./support/payment-flow.js";
import { RECIPIENT, startTopupServer, type TopupServer } from "./support/topup-server.js";

const PAYER = "0x6666666666666666666666666666666666666666";
const FIVE_DOLLARS = 5_000_000n;
const PRICED_MODEL = {
  id: "priced-baseline",
  provider: "baseline" as const,
  max_completion_tokens: 64,
  pricing: { prompt: "0.001", completion: "0.001" },
};

describe.each(["sqlite", "postgres"] as const)("reconciliation, on %s", (dialect) => {
  let node: FakeNode;
  let database: TestDatabase | null = null;
  let server: TopupServer;
  const clock = new ManualClock(Date.now());

  beforeAll(async () => {
    node = await new FakeNode().start();
    node.now = () => clock.now();
    if (dialect === "postgres") database = await createTestDatabase();
    server = await startTopupServer({
      rpcUrl: node.url,
      clock,
      models: [PRICED_MODEL],
      ...(database ? { databaseUrl: database.url } : {}),
    });
  });

  afterAll(async () => {
    await server?.close();
    await database?.drop();
    await node?.stop();
  });

  const reconcile = (sinceMs?: number) => {
    const reconciliation = server.services.reconciliation;
    if (!reconciliation) throw new Error("payments are configured");
    return reconciliation.reconcile(sinceMs);
  };

  async function challenge(apiKey?: string): Promise<WireChallenge> {
    return challengeFor(await postTopup(server.url, apiKey ? { apiKey } : {}), "tempo");
  }

  function pay(paid: WireChallenge, amount = FIVE_DOLLARS, realm = paid.realm): Hex {
    return node.mineTransfer({
      from: PAYER,
      to: RECIPIENT,
      amount,
      memo: attributionMemo(paid.id, realm),
    });
  }

  async function creditsOf(hash: string): Promise<number> {
    const rows = await server.services.database.db.query
      .selectFrom("ledger_entries")
      .select("id")
      .where("reference", "=", `chain:${hash}`)
      .execute();
    return rows.length;
  }

  async function balanceOf(apiKey: string): Promise<unknown> {
    const response = await fetch(`${server.url}/v1/balance`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    return response.json();
  }

  async function newPayerKey(): Promise<string> {
    const paid = await challenge();
    const hash = pay(paid);
    const answer = await postTopup(server.url, {
      authorization: paymentCredential(paid, { type: "hash", hash }),
    });
    expect(answer.status).toBe(200);
    return answer.body.api_key as string;
  }

  it("credits a refill mined after its credential was turned away to the refilled organization", async () => {
    const apiKey = await newPayerKey();
    await reconcile();
    const paid = await challenge(apiKey);
    const hash = pay(paid);
    node.holdBack(hash);
    const authorization = paymentCredential(paid, { type: "hash", hash });
    const early = await postTopup(server.url, { authorization, apiKey });
    expect(early.status).toBe(402);
    expect(early.body.detail).toContain("same credential");
    // The payer gives up; the transaction lands after the challenge expired.
    clock.advanceSeconds(3600);
    node.land(hash);
    const report = await reconcile();
    expect(report).toMatchObject({ credited: 1, unclaimed: 0, already_credited: 0 });
    expect(await balanceOf(apiKey)).toEqual({ balance_dollars: 10 });
    // The credential, presented at last, gets the organization it refilled, credited once.
    const late = await postTopup(server.url, { authorization, apiKey });
    expect(late.status, JSON.stringify(late.body)).toBe(200);
    expect(late.body).toMatchObject({ credited_cents: 500, api_key: null });
    expect(await balanceOf(apiKey)).toEqual({ balance_dollars: 10 });
    expect(await creditsOf(hash)).toBe(1);
  });

  it("credits a refill whose credential never reached the server to the refilled organization", async () => {
    const apiKey = await newPayerKey();
    await reconcile();
    const paid = await challenge(apiKey);
    const hash = pay(paid);
    clock.advanceSeconds(3600);
    expect(await reconcile()).toMatchObject({ credited: 1, unclaimed: 0 });
    expect(await balanceOf(apiKey)).toEqual({ balance_dollars: 10 });
    // The credential, presented at last, gets the organization it refilled and nothing more.
    const authorization = paymentCredential(paid, { type: "hash", hash });
    const late = await postTopup(server.url, { authorization, apiKey });
    expect(late.status, JSON.stringify(late.body)).toBe(200);
    expect(late.body).toMatchObject({ credited_cents: 500, api_key: null });
    expect(await balanceOf(apiKey)).toEqual({ balance_dollars: 10 });
    expect(await creditsOf(hash)).toBe(1);
  });

  it("credits a payment of a paid route's 402 that never came back to the organization out of credits", async () => {
    const created = await server.services.accounts.open({ name: "agent out of credits" });
    const apiKey = created.key.api_key;
    const refused = await fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({
        model: PRICED_MODEL.id,
        messages: [{ role: "user", content: "Will it rain tomorrow?" }],
      }),
    });
    expect(refused.status).toBe(402);
    const paid = challengeFor(
      {
        status: 402,
        headers: refused.headers,
        body: (await refused.json()) as Record<string, unknown>,
      },
      "tempo",
    );
    const hash = pay(paid, BigInt(paid.request.amount as string));
    clock.advanceSeconds(3600);
    expect(await reconcile()).toMatchObject({ credited: 1, unclaimed: 0 });
    expect(await balanceOf(apiKey)).toEqual({ balance_dollars: 5 });
    expect(await creditsOf(hash)).toBe(1);
  });

  it("holds a payment never presented for the payer who claims it with the credential", async () => {
    const paid = await challenge();
    const hash = pay(paid, 7_000_000n);
    clock.advanceSeconds(3600);
    expect(await reconcile()).toMatchObject({ credited: 0, unclaimed: 1 });
    expect(await reconcile()).toMatchObject({ credited: 0, unclaimed: 0, scanned: [] });
    const authorization = paymentCredential(paid, { type: "hash", hash });
    const claimed = await postTopup(server.url, { authorization });
    expect(claimed.status, JSON.stringify(claimed.body)).toBe(200);
    expect(claimed.body).toMatchObject({
      credited_cents: 700,
      api_key: expect.stringMatching(/^sk_/),
    });
    expect(await balanceOf(claimed.body.api_key as string)).toEqual({ balance_dollars: 7 });
    // Claimed once: the same credential under another request gives nothing more.
    const again = await postTopup(server.url, {
      authorization,
      apiKey: claimed.body.api_key as string,
    });
    expect(again.status).toBe(402);
    expect(await creditsOf(hash)).toBe(1);
  });

  it("credits a payment whose credit was interrupted after its proof", async () => {
    const paid = await challenge();
    const hash = pay(paid);
    const authorization = paymentCredential(paid, { type: "hash", hash });
    const { ledger } = server.services;
    const credit = ledger.credit.bind(ledger);
    ledger.credit = () => Promise.reject(new Error("the process died"));
    try {
      expect((await postTopup(server.url, { authorization })).status).toBe(500);
    } finally {
      ledger.credit = credit;
    }
    expect(await creditsOf(hash)).toBe(0);
    expect(await reconcile()).toMatchObject({ unclaimed: 1 });
    const claimed = await postTopup(server.url, { authorization });
    expect(claimed.status, JSON.stringify(claimed.body)).toBe(200);
    expect(await balanceOf(claimed.body.api_key as string)).toEqual({ balance_dollars: 5 });
    expect(await creditsOf(hash)).toBe(1);
  });

  it("leaves alone what is not a payment to this server, and what a credential credited", async () => {
    const credited = await newPayerKey();
    const paid = await challenge();
    const others = [
      pay(paid, FIVE_DOLLARS, "another.server"),
      node.mineTransfer({
        from: PAYER,
        to: PAYER,
        amount: FIVE_DOLLARS,
        memo: attributionMemo(paid.id, paid.realm),
      }),
      node.mineTransfer({
        token: "0x20c0000000000000000000000000000000000001",
        from: PAYER,
        to: RECIPIENT,
        amount: FIVE_DOLLARS,
        memo: attributionMemo(paid.id, paid.realm),
      }),
      node.mineTransfer({ from: PAYER, to: RECIPIENT, amount: FIVE_DOLLARS }),
      node.mineTransfer({
        from: PAYER,
        to: RECIPIENT,
        amount: 9_999n,
        memo: attributionMemo(paid.id, paid.realm),
      }),
      node.mineTransfer({
        from: PAYER,
        to: RECIPIENT,
        amount: FIVE_DOLLARS,
        memo: attributionMemo(paid.id, paid.realm),
        failed: true,
      }),
    ];
    expect(await reconcile()).toMatchObject({ credited: 0, unclaimed: 0, already_credited: 1 });
    for (const hash of others) expect(await creditsOf(hash)).toBe(0);
    expect(await balanceOf(credited)).toEqual({ balance_dollars: 5 });
  });

  it("rescans from a date without crediting twice", async () => {
    const paid = await challenge();
    const hash = pay(paid);
    const first = await reconcile();
    expect(first.unclaimed).toBe(1);
    const rescan = await reconcile(clock.now() - 48 * 3600 * 1000);
    expect(rescan.unclaimed + rescan.credited).toBe(0);
    expect(rescan.already_credited).toBeGreaterThan(0);
    expect(await creditsOf(hash)).toBe(1);
  });

  it("credits nothing while the node answers for another chain", async () => {
    const paid = await challenge();
    const hash = pay(paid);
    node.chainId = CHAIN_ID + 1;
    try {
      await expect(reconcile()).rejects.toThrow(/chain_id/);
    } finally {
      node.chainId = CHAIN_ID;
    }
    expect(await creditsOf(hash)).toBe(0);
    expect(await reconcile()).toMatchObject({ unclaimed: 1 });
  });

  it("is done by the batch worker, which credits what lands uncredited", async () => {
    const paid = await challenge();
    const hash = pay(paid);
    const warnings: string[] = [];
    const { stop } = createBatchWorker(
      server.services,
      { warn: (_details, message) => warnings.push(message), error: () => undefined },
      { reconcileMs: 0, pollMs: 20 },
    );
    try {
      await expect.poll(() => creditsOf(hash), { timeout: 5_000 }).toBe(1);
    } finally {
      await stop();
    }
    expect(warnings).toContain("reconciliation credited payments found uncredited");
    const claimed = await postTopup(server.url, {
      authorization: paymentCredential(paid, { type: "hash", hash }),
    });
    expect(claimed.status).toBe(200);
  });
});
