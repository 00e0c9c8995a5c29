import { Mppx, tempo } from "mppx/client";
import { createClient, http } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { tempo as tempoChain } from "viem/tempo/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../support/manual-clock.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { FakeNode } from "./support/fake-node.js";
import {
  attributionMemo,
  challengeFor,
  challengesOf,
  paymentCredential,
  postTopup,
} from "./support/payment-flow.js";
import { RECIPIENT, startTopupServer, type TopupServer } from "./support/topup-server.js";

const PAYER = "0x6666666666666666666666666666666666666666";

describe.each(["sqlite", "postgres"] as const)("no payment is lost, on %s", (dialect) => {
  let node: FakeNode;
  let database: TestDatabase | null = null;
  let server: TopupServer;
  const clock = new ManualClock(Date.now());

  beforeAll(async () => {
    node = await new FakeNode().start();
    if (dialect === "postgres") database = await createTestDatabase();
    server = await startTopupServer({
      rpcUrl: node.url,
      clock,
      ...(database ? { databaseUrl: database.url } : {}),
    });
  });

  afterAll(async () => {
    await server?.close();
    await database?.drop();
    await node?.stop();
  });

  async function paidCredential(): Promise<{ authorization: string; hash: string }> {
    const paid = challengeFor(await postTopup(server.url), "tempo");
    const hash = node.mineTransfer({
      from: PAYER,
      to: RECIPIENT,
      amount: 5_000_000n,
      memo: attributionMemo(paid.id, paid.realm),
    });
    return { authorization: paymentCredential(paid, { type: "hash", hash }), hash };
  }

  async function topupCount(hash: string): Promise<number> {
    const rows = await server.services.database.db.query
      .selectFrom("ledger_entries")
      .select("id")
      .where("reference", "=", `chain:${hash}`)
      .execute();
    return rows.length;
  }

  const balanceWith = (apiKey: string) =>
    fetch(`${server.url}/v1/balance`, { headers: { authorization: `Bearer ${apiKey}` } });

  it("gives a payer whose answer was lost its organization back, with a fresh key", async () => {
    const { authorization, hash } = await paidCredential();
    const lost = await postTopup(server.url, { authorization });
    expect(lost.status).toBe(200);
    // A copy sent while the first answer may still be on its way takes nothing, and says when
    // presenting it again can help.
    const copy = await postTopup(server.url, { authorization });
    expect(copy.status).toBe(402);
    expect(copy.headers.get("retry-after")).toBe("30");
    clock.advanceSeconds(3600);
    const recovered = await postTopup(server.url, { authorization });
    expect(recovered.status, JSON.stringify(recovered.body)).toBe(200);
    expect(recovered.headers.get("cache-control")).toBe("no-store");
    expect(recovered.body).toMatchObject({
      organization_id: lost.body.organization_id,
      credited_cents: 500,
      api_key: expect.stringMatching(/^sk_/),
    });
    expect(recovered.body.api_key).not.toBe(lost.body.api_key);
    expect((await balanceWith(lost.body.api_key as string)).status).toBe(401);
    expect(await (await balanceWith(recovered.body.api_key as string)).json()).toEqual({
      balance_dollars: 5,
    });
    expect(await topupCount(hash)).toBe(1);
    // The fresh key has been used: its holder saw it, and the credential gives nothing more.
    clock.advanceSeconds(60);
    expect((await postTopup(server.url, { authorization })).status).toBe(402);
    // Nor after 24 hours.
    clock.advanceSeconds(24 * 3600);
    expect((await postTopup(server.url, { authorization })).status).toBe(402);
  });

  it("honours Idempotency-Key: a retry under another key is refused", async () => {
    const { authorization } = await paidCredential();
    const headers = (key: string) => ({ authorization, "idempotency-key": key });
    const first = await fetch(`${server.url}/v1/mpp/topup`, {
      method: "POST",
      headers: headers("a1"),
    });
    expect(first.status).toBe(200);
    clock.advanceSeconds(60);
    const other = await fetch(`${server.url}/v1/mpp/topup`, {
      method: "POST",
      headers: headers("b2"),
    });
    expect(other.status).toBe(402);
    const same = await fetch(`${server.url}/v1/mpp/topup`, {
      method: "POST",
      headers: headers("a1"),
    });
    expect(same.status).toBe(200);
  });

  it("credits a broadcast whose answer timed out when the same credential comes back", async () => {
    node.sendDelayMs = 2_500;
    try {
      const challenged = await fetch(`${server.url}/v1/mpp/topup`, { method: "POST" });
      const wallet = Mppx.create({
        polyfill: false,
        methods: [
          tempo.charge({
            account: privateKeyToAccount(generatePrivateKey()),
            getClient: () => createClient({ chain: tempoChain, transport: http(node.url) }),
          }),
        ],
      });
      const authorization = await wallet.createCredential(challenged);
      const timedOut = await postTopup(server.url, { authorization });
      expect(timedOut.status).toBe(402);
      expect(timedOut.body.detail).toContain("same credential");
      expect(timedOut.headers.get("retry-after")).toMatch(/^\d+$/);
      const [again] = challengesOf(timedOut);
      const [offered] = challengesOf({ ...timedOut, headers: challenged.headers });
      // The challenge paid, not a fresh one that would invite a second payment.
      expect(challengesOf(timedOut)).toHaveLength(1);
      expect(again?.id).toBe(offered?.id);
      node.sendDelayMs = 0;
      const credited = await postTopup(server.url, { authorization });
      expect(credited.status, JSON.stringify(credited.body)).toBe(200);
      expect(credited.body).toMatchObject({ credited_cents: 500 });
    } finally {
      node.sendDelayMs = 0;
    }
  });

  it("lets the stock mppx client ride out a slow broadcast, paying once", async () => {
    node.sendDelayMs = 2_500;
    const wallet = Mppx.create({
      polyfill: false,
      methods: [
        tempo.charge({
          account: privateKeyToAccount(generatePrivateKey()),
          getClient: () => createClient({ chain: tempoChain, transport: http(node.url) }),
        }),
      ],
    });
    const sent = () => node.calls.filter((call) => call === "eth_sendRawTransactionSync").length;
    const before = sent();
    try {
      const response = await wallet.fetch(`${server.url}/v1/mpp/topup`, { method: "POST" });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ credited_cents: 500 });
    } finally {
      node.sendDelayMs = 0;
    }
    // mppx signs a new transaction for its retry; Sibyl credits the one already sent and never
    // broadcasts the second, which would have been a second payment.
    expect(sent() - before).toBe(1);
  });
});
