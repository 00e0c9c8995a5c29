import { Challenge } from "mppx";
import { Mppx, tempo } from "mppx/client";
import { createClient, http } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { tempo as tempoChain } from "viem/tempo/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeNode } from "./support/fake-node.js";
import {
  attributionMemo,
  challengeFor,
  paymentCredential,
  postTopup,
  type TopupAnswer,
  type WireChallenge,
} from "./support/payment-flow.js";
import { RECIPIENT, startTopupServer, type TopupServer } from "./support/topup-server.js";

const PAYER = "0x1111111111111111111111111111111111111111";

let node: FakeNode;
let server: TopupServer;

beforeAll(async () => {
  node = await new FakeNode().start();
  // The chain rail alone: a card credential names a method this server does not offer.
  server = await startTopupServer({ rpcUrl: node.url });
});

afterAll(async () => {
  await server?.close();
  await node?.stop();
});

async function challenge(): Promise<WireChallenge> {
  return challengeFor(await postTopup(server.url), "tempo");
}

function expectProblem(answer: TopupAnswer, status: number, code: string): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(answer.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  expect(answer.body).toMatchObject({
    type: `https://paymentauth.org/problems/${code}`,
    status,
    error: { code },
  });
  expect(answer.headers.get("www-authenticate")).toMatch(/^Payment /);
}

const creditedTopups = async () =>
  Number(
    (
      await server.services.database.db.query
        .selectFrom("ledger_entries")
        .select((eb) => eb.fn.countAll<number>().as("count"))
        .where("kind", "=", "topup")
        .executeTakeFirstOrThrow()
    ).count,
  );

describe("payment-insufficient", () => {
  it("answers a transfer short of the challenge, credits nothing, then gives what it paid", async () => {
    const paid = await challenge();
    const hash = node.mineTransfer({
      from: PAYER,
      to: RECIPIENT,
      amount: 2_500_000n,
      memo: attributionMemo(paid.id, paid.realm),
    });
    const authorization = paymentCredential(paid, { type: "hash", hash });
    const before = await creditedTopups();
    const short = await postTopup(server.url, { authorization });
    expectProblem(short, 402, "payment-insufficient");
    expect(short.body.detail).toContain("2500000 base units");
    expect(short.body.detail).toContain("less than the 5000000");
    // Reconciliation credits the payment within a minute: presenting it again then helps.
    expect(short.headers.get("retry-after")).toBe("60");
    expect(await creditedTopups()).toBe(before);
    await server.services.reconciliation?.reconcile();
    const claimed = await postTopup(server.url, { authorization });
    expect(claimed.status, JSON.stringify(claimed.body)).toBe(200);
    expect(claimed.body).toMatchObject({ credited_cents: 250, api_key: expect.any(String) });
  });

  it("refuses a signed transaction for less before it is sent", async () => {
    const issued = await postTopup(server.url);
    const paid = challengeFor(issued, "tempo");
    // The wallet signs what a challenge asks: one asking for half, the credential then naming
    // the challenge as issued.
    const halved = Challenge.serialize({
      ...paid,
      request: { ...paid.request, amount: "2500000" },
    } as Parameters<typeof Challenge.serialize>[0]);
    const wallet = Mppx.create({
      polyfill: false,
      methods: [
        tempo.charge({
          account: privateKeyToAccount(generatePrivateKey()),
          getClient: () => createClient({ chain: tempoChain, transport: http(node.url) }),
        }),
      ],
    });
    const signed = await wallet.createCredential(
      new Response(null, { status: 402, headers: { "www-authenticate": halved } }),
    );
    const decoded = JSON.parse(
      Buffer.from(signed.replace(/^Payment /, ""), "base64url").toString("utf8"),
    ) as { payload: Record<string, unknown>; source?: string };
    const authorization = paymentCredential(
      paid,
      decoded.payload,
      decoded.source ? { source: decoded.source } : {},
    );
    const sentBefore = node.calls.filter((call) => call.startsWith("eth_sendRaw")).length;
    const answer = await postTopup(server.url, { authorization });
    expectProblem(answer, 402, "payment-insufficient");
    expect(answer.body.detail).toContain("it was not sent");
    expect(node.calls.filter((call) => call.startsWith("eth_sendRaw")).length).toBe(sentBefore);
  });
});

describe("method-unsupported", () => {
  it.each([
    ["a method nobody registered", "lightning"],
    ["a registered method this server does not offer", "stripe"],
  ])("answers 400 for %s, naming the methods offered", async (_, method) => {
    const paid = await challenge();
    const answer = await postTopup(server.url, {
      authorization: paymentCredential({ ...paid, method }, { spt: "spt_123" }),
    });
    expectProblem(answer, 400, "method-unsupported");
    expect(answer.body.detail).toContain(`'${method}'`);
    expect(answer.body.detail).toContain("it takes tempo");
  });
});
