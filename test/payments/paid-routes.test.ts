import { Challenge, Receipt } from "mppx";
import { Mppx, stripe, tempo } from "mppx/client";
import OpenAI from "openai";
import { createClient, http } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { tempo as tempoChain } from "viem/tempo/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeCardApi } from "./support/fake-card-api.js";
import { FakeNode } from "./support/fake-node.js";
import { attributionMemo, paymentCredential, type WireChallenge } from "./support/payment-flow.js";
import { RECIPIENT, startTopupServer, type TopupServer } from "./support/topup-server.js";

const CHEAP = {
  id: "priced-baseline",
  provider: "baseline" as const,
  max_completion_tokens: 64,
  pricing: { prompt: "0.001", completion: "0.001" },
};
/** A request on it may cost more than the default $5 top-up. */
const DEAR = { ...CHEAP, id: "dear-baseline", pricing: { prompt: "0.1", completion: "0.1" } };
const QUESTION = "Will it rain in Paris tomorrow?";

let node: FakeNode;
let cards: FakeCardApi;
let server: TopupServer;

beforeAll(async () => {
  node = await new FakeNode().start();
  cards = await new FakeCardApi().start();
  server = await startTopupServer({
    rpcUrl: node.url,
    cardApiBase: cards.url,
    models: [CHEAP, DEAR],
  });
});

afterAll(async () => {
  await server?.close();
  await node?.stop();
  await cards?.stop();
});

async function emptyOrganization(): Promise<{ organizationId: string; apiKey: string }> {
  const organization = await server.services.organizations.create("agent");
  const key = await server.services.apiKeys.issue(organization.id);
  return { organizationId: organization.id, apiKey: key.api_key };
}

function post(path: string, headers: Record<string, string>, body: unknown) {
  return fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

const PAID_REQUESTS: [string, string, Record<string, unknown>][] = [
  ["chat", "/v1/chat/completions", { messages: [{ role: "user", content: QUESTION }] }],
  [
    "chat under /v1/compat",
    "/v1/compat/chat/completions",
    {
      messages: [{ role: "user", content: QUESTION }],
    },
  ],
  ["text", "/v1/completions", { prompt: QUESTION }],
  ["Responses", "/v1/responses", { input: QUESTION }],
];

function challengesOf(response: Response): WireChallenge[] {
  return Challenge.deserializeList(
    response.headers.get("www-authenticate") ?? "",
  ) as WireChallenge[];
}

describe("a paid route answering 402 for want of credits", () => {
  it.each(PAID_REQUESTS)(
    "%s carries Payment challenges beside the error body",
    async (_, path, body) => {
      const { apiKey } = await emptyOrganization();
      const response = await post(
        path,
        { authorization: `Bearer ${apiKey}` },
        {
          model: CHEAP.id,
          ...body,
        },
      );
      expect(response.status).toBe(402);
      expect(response.headers.get("cache-control")).toBe("no-store");
      const challenges = challengesOf(response);
      expect(challenges.map((challenge) => challenge.method)).toEqual(["tempo", "stripe"]);
      expect(challenges[0]?.request).toMatchObject({ amount: "5000000", recipient: RECIPIENT });
      expect(challenges[1]?.request).toMatchObject({ amount: "500", currency: "usd" });
      const json = (await response.json()) as { error: { code: string; message: string } };
      expect(json.error.code).toBe("insufficient_credits");
      expect(json.error.message).toContain("X-API-Key");
    },
  );

  it("asks for what the request may cost when that is more than the default top-up", async () => {
    const { apiKey } = await emptyOrganization();
    const response = await post(
      "/v1/chat/completions",
      { authorization: `Bearer ${apiKey}` },
      {
        model: DEAR.id,
        messages: [{ role: "user", content: QUESTION }],
      },
    );
    expect(response.status).toBe(402);
    const [chain] = challengesOf(response);
    expect(BigInt(chain?.request.amount as string)).toBeGreaterThan(5_000_000n * 1n + 1_400_000n);
  });

  it("ranks the challenges by the client's Accept-Payment", async () => {
    const { apiKey } = await emptyOrganization();
    const ask = (acceptPayment: string) =>
      post(
        "/v1/chat/completions",
        { authorization: `Bearer ${apiKey}`, "accept-payment": acceptPayment },
        { model: CHEAP.id, messages: [{ role: "user", content: QUESTION }] },
      );
    const methods = async (acceptPayment: string) =>
      challengesOf(await ask(acceptPayment)).map((challenge) => challenge.method);
    expect(await methods("stripe/charge, tempo/charge;q=0.5")).toEqual(["stripe", "tempo"]);
    expect(await methods("tempo/charge;q=0, */charge")).toEqual(["stripe"]);
    expect(await methods("tempo/*;q=0.2, */charge;q=0.1")).toEqual(["tempo", "stripe"]);
    expect(await methods("solana/charge")).toEqual(["tempo", "stripe"]);
    expect(await methods("garbage;;")).toEqual(["tempo", "stripe"]);
  });
});

describe("retrying the request with a credential", () => {
  it("credits the key's organization and runs the request", async () => {
    const { organizationId, apiKey } = await emptyOrganization();
    const body = { model: CHEAP.id, messages: [{ role: "user", content: QUESTION }] };
    const refused = await post("/v1/chat/completions", { authorization: `Bearer ${apiKey}` }, body);
    const [chain] = challengesOf(refused);
    if (!chain) throw new Error("no challenge");
    const hash = node.mineTransfer({
      from: "0x4444444444444444444444444444444444444444",
      to: RECIPIENT,
      amount: 5_000_000n,
      memo: attributionMemo(chain.id, chain.realm),
    });
    const authorization = paymentCredential(chain, { type: "hash", hash });
    const paid = await post("/v1/chat/completions", { authorization, "x-api-key": apiKey }, body);
    expect(paid.status, await paid.clone().text()).toBe(200);
    expect(Receipt.fromResponse(paid)).toMatchObject({ method: "tempo", reference: hash });
    const entries = await server.services.ledger.entries(organizationId);
    expect(entries.filter((entry) => entry.kind === "topup")).toMatchObject([
      { amount_nanos: 5_000_000_000, reference: `chain:${hash}` },
    ]);
    // Presented again (its answer lost), the request runs and is billed, the payment is not
    // credited twice.
    const again = await post("/v1/chat/completions", { authorization, "x-api-key": apiKey }, body);
    expect(again.status).toBe(200);
    const after = await server.services.ledger.entries(organizationId);
    expect(after.filter((entry) => entry.kind === "topup")).toHaveLength(1);
    // Another credential for the same challenge proves nothing.
    const forged = paymentCredential(chain, { type: "hash", hash: `0x${"cd".repeat(32)}` });
    const forgedAnswer = await post(
      "/v1/chat/completions",
      { authorization: forged, "x-api-key": apiKey },
      body,
    );
    expect(forgedAnswer.status).toBe(402);
    expect(forgedAnswer.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(await forgedAnswer.json()).toMatchObject({
      type: "https://paymentauth.org/problems/invalid-challenge",
      status: 402,
    });
    expect(await server.services.ledger.balance(organizationId)).toBeLessThan(5_000_000_000);
  });

  it("needs the key in X-API-Key, and refuses an unknown one", async () => {
    const body = { model: CHEAP.id, messages: [{ role: "user", content: QUESTION }] };
    const without = await post("/v1/chat/completions", { authorization: "Payment abc" }, body);
    expect(without.status).toBe(401);
    const unknown = await post(
      "/v1/chat/completions",
      { authorization: "Payment abc", "x-api-key": `sk_${"Z".repeat(43)}` },
      body,
    );
    expect(unknown.status).toBe(401);
  });

  it("answers 400 method-unsupported for a method this server does not take", async () => {
    const { apiKey } = await emptyOrganization();
    const challenge: WireChallenge = {
      id: "x".repeat(43),
      realm: "sibyl.test",
      method: "lightning",
      intent: "charge",
      request: { amount: "500" },
    };
    const answer = await post(
      "/v1/chat/completions",
      { authorization: paymentCredential(challenge, { preimage: "00" }), "x-api-key": apiKey },
      { model: CHEAP.id, messages: [{ role: "user", content: QUESTION }] },
    );
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({
      type: "https://paymentauth.org/problems/method-unsupported",
    });
    expect(answer.headers.get("www-authenticate")).toMatch(/^Payment /);
  });
});

describe("an agent using the openai SDK through the stock mppx fetch wrapper", () => {
  function agent(apiKey: string, methods: Parameters<typeof Mppx.create>[0]["methods"]) {
    const wallet = Mppx.create({ polyfill: false, methods });
    // The only setup: the key also in X-API-Key, and the wallet's fetch.
    return new OpenAI({
      apiKey,
      baseURL: `${server.url}/v1`,
      defaultHeaders: { "X-API-Key": apiKey },
      fetch: wallet.fetch,
      maxRetries: 0,
    });
  }

  it("refills on chain when out of credit and gets its completion", async () => {
    const { organizationId, apiKey } = await emptyOrganization();
    const client = agent(apiKey, [
      tempo.charge({
        account: privateKeyToAccount(generatePrivateKey()),
        getClient: () => createClient({ chain: tempoChain, transport: http(node.url) }),
      }),
    ]);
    const completion = await client.chat.completions.create({
      model: CHEAP.id,
      messages: [{ role: "user", content: QUESTION }],
    });
    expect(completion.choices[0]?.message.content).toBeTruthy();
    const balance = await server.services.ledger.balance(organizationId);
    expect(balance).toBeGreaterThan(4_000_000_000);
    expect(balance).toBeLessThan(5_000_000_000);
    // With credit left, the next call needs no payment.
    const before = node.calls.length;
    await client.completions.create({ model: CHEAP.id, prompt: QUESTION });
    expect(node.calls.slice(before)).not.toContain("eth_sendRawTransactionSync");
  });

  it("is refused with 403 and no challenge at its key's spend limit, and pays nothing", async () => {
    const organization = await server.services.organizations.create("agent");
    const key = await server.services.apiKeys.issue(organization.id, undefined, {
      scope: "inference",
      spendLimitNanos: 1,
    });
    const client = agent(key.api_key, [
      tempo.charge({
        account: privateKeyToAccount(generatePrivateKey()),
        getClient: () => createClient({ chain: tempoChain, transport: http(node.url) }),
      }),
    ]);
    const before = node.calls.length;
    const refused = await client.chat.completions
      .create({ model: CHEAP.id, messages: [{ role: "user", content: QUESTION }] })
      .then(
        () => null,
        (error: { status: number; headers: Headers; code: string; message: string }) => error,
      );
    expect(refused).toMatchObject({ status: 403, code: "key_spend_limit_reached" });
    expect(refused?.headers.get("www-authenticate")).toBeNull();
    expect(refused?.message).toContain("POST /v1/organization/api_keys/");
    expect(node.calls.slice(before)).toEqual([]);
    const entries = await server.services.ledger.entries(organization.id);
    expect(entries.filter((entry) => entry.kind === "topup")).toEqual([]);
  });

  it("refills by card and gets its Responses answer", async () => {
    const { organizationId, apiKey } = await emptyOrganization();
    const client = agent(apiKey, [
      stripe.charge({ paymentMethod: "pm_card_visa", createToken: async () => cards.issueToken() }),
    ]);
    const response = await client.responses.create({ model: CHEAP.id, input: QUESTION });
    expect(response.output_text).toBeTruthy();
    const entries = await server.services.ledger.entries(organizationId);
    expect(entries.filter((entry) => entry.kind === "topup")).toMatchObject([
      { amount_nanos: 5_000_000_000, reference: expect.stringMatching(/^card:pi_/) },
    ]);
  });
});
