import { Ajv2020 } from "ajv/dist/2020.js";
import { Challenge, Receipt } from "mppx";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../support/manual-clock.js";
import { OpenApiContract } from "../support/openapi-contract.js";
import { startTestServer } from "../support/server.js";
import { FakeCardApi } from "./support/fake-card-api.js";
import { FakeNode, USDC } from "./support/fake-node.js";
import {
  attributionMemo,
  challengeFor,
  challengesOf,
  paymentCredential,
  postTopup,
  type TopupAnswer,
  type WireChallenge,
} from "./support/payment-flow.js";
import {
  PAYMENT_SECRET,
  REALM,
  RECIPIENT,
  startTopupServer,
  type TopupServer,
} from "./support/topup-server.js";

const PAYER = "0x1111111111111111111111111111111111111111";
const PRICED_MODEL = {
  id: "priced-baseline",
  provider: "baseline" as const,
  max_completion_tokens: 64,
  pricing: { prompt: "0.001", completion: "0.001" },
};

/** A chat completion on the priced model, which an organization without credits cannot pay. */
function askWithoutCredits(baseUrl: string, apiKey: string): Promise<Response> {
  return fetch(`${baseUrl}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({
      model: "priced-baseline",
      messages: [{ role: "user", content: "Will it rain tomorrow?" }],
    }),
  });
}
/** The JSON Schema of `x-payment-info` in draft-payment-discovery-00. */
const X_PAYMENT_INFO_SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  title: "x-payment-info",
  oneOf: [
    { $ref: "#/$defs/offer" },
    {
      type: "object",
      required: ["offers"],
      properties: { offers: { type: "array", minItems: 1, items: { $ref: "#/$defs/offer" } } },
      additionalProperties: false,
    },
  ],
  $defs: {
    offer: {
      type: "object",
      required: ["intent", "method", "amount"],
      properties: {
        intent: { type: "string", enum: ["charge", "session"] },
        method: { type: "string" },
        amount: { oneOf: [{ type: "null" }, { type: "string", pattern: "^(0|[1-9][0-9]*)$" }] },
        currency: { type: "string" },
        description: { type: "string" },
      },
      additionalProperties: false,
    },
  },
};

const STRANGER = "0x2222222222222222222222222222222222222222";

let node: FakeNode;
let cards: FakeCardApi;
let server: TopupServer;
const clock = new ManualClock(Date.now());

beforeAll(async () => {
  node = await new FakeNode().start();
  cards = await new FakeCardApi().start();
  server = await startTopupServer({ rpcUrl: node.url, cardApiBase: cards.url, clock });
});

afterAll(async () => {
  await server?.close();
  await node?.stop();
  await cards?.stop();
});

async function challenge(amountCents?: number, apiKey?: string): Promise<WireChallenge> {
  const answer = await postTopup(server.url, {
    ...(amountCents ? { amountCents } : {}),
    ...(apiKey ? { apiKey } : {}),
  });
  expect(answer.status).toBe(402);
  return challengeFor(answer, "tempo");
}

/** The payer's transfer for a challenge, mined; returns its hash. */
function pay(
  paid: WireChallenge,
  overrides: Partial<Parameters<FakeNode["mineTransfer"]>[0]> = {},
) {
  return node.mineTransfer({
    from: PAYER,
    to: RECIPIENT,
    amount: BigInt(paid.request.amount as string),
    memo: attributionMemo(paid.id, paid.realm),
    ...overrides,
  });
}

const hashCredential = (paid: WireChallenge, hash: string, source?: string) =>
  paymentCredential(paid, { type: "hash", hash }, source ? { source } : {});

/** `id` with its second-to-last character changed: a challenge id Sibyl never signed. */
function forgedId(id: string): string {
  const changed = id.at(-2) === "A" ? "B" : "A";
  return `${id.slice(0, -2)}${changed}${id.slice(-1)}`;
}

function expectProblem(answer: TopupAnswer, code: string): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(402);
  expect(answer.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  expect(answer.headers.get("cache-control")).toBe("no-store");
  expect(answer.headers.get("payment-receipt")).toBeNull();
  expect(answer.body).toMatchObject({
    type: `https://paymentauth.org/problems/${code}`,
    status: 402,
    error: { code, type: "payment_required" },
  });
  expect(challengesOf(answer).map((fresh) => fresh.method)).toEqual(["tempo", "stripe"]);
}

async function organizationCount(): Promise<number> {
  const rows = await server.services.database.db.query
    .selectFrom("organizations")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .executeTakeFirstOrThrow();
  return Number(rows.count);
}

describe("POST /v1/mpp/topup without a credential", () => {
  it("answers 402 with one Payment challenge per rail, bound by HMAC to its parameters", async () => {
    const answer = await postTopup(server.url);
    expectProblem(answer, "payment-required");
    expect(answer.body.detail).toContain("$5.00");
    const [chain, card] = challengesOf(answer);
    expect(chain).toMatchObject({
      realm: REALM,
      method: "tempo",
      intent: "charge",
      request: {
        amount: "5000000",
        currency: USDC,
        recipient: RECIPIENT,
        methodDetails: { chainId: 4217 },
      },
    });
    expect(card).toMatchObject({
      realm: REALM,
      method: "stripe",
      intent: "charge",
      request: {
        amount: "500",
        currency: "usd",
        methodDetails: { networkId: "profile_test", paymentMethodTypes: ["card", "link"] },
      },
    });
    for (const issued of [chain, card]) {
      expect(issued?.description).toContain("$5.00");
      expect(Date.parse(issued?.expires ?? "") - clock.now()).toBeGreaterThan(290_000);
      expect(issued?.expires).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      const parsed = Challenge.deserialize(
        `Payment id="${issued?.id}", realm="${REALM}", method="${issued?.method}", intent="charge", request="${Challenge.serialize(issued as Parameters<typeof Challenge.serialize>[0]).match(/request="([^"]+)"/)?.[1]}", expires="${issued?.expires}", opaque="${issued?.opaque}"`,
      );
      expect(Challenge.verify(parsed, { secretKey: PAYMENT_SECRET })).toBe(true);
    }
    expect(answer.headers.get("www-authenticate")?.match(/Payment /g)).toHaveLength(2);
  });

  it("names the amount asked for, and answers under /v1/compat too", async () => {
    const answer = await postTopup(server.url, {
      amountCents: 12_345,
      path: "/v1/compat/mpp/topup",
    });
    expectProblem(answer, "payment-required");
    expect(challengeFor(answer, "tempo").request.amount).toBe("123450000");
    expect(challengeFor(answer, "stripe").description).toContain("$123.45");
  });

  it.each([
    [{ amount_cents: 99 }, "greater_than_equal"],
    [{ amount_cents: 1_000_001 }, "less_than_equal"],
    [{ amount_cents: "500" }, "int_type"],
    [{ amount_cents: 500, extra: 1 }, "extra_forbidden"],
  ])("refuses %j with a 422 in the validation shape", async (body, type) => {
    const response = await fetch(`${server.url}/v1/mpp/topup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(422);
    const json = (await response.json()) as { detail: { loc: unknown[]; type: string }[] };
    expect(json.detail[0]?.loc[0]).toBe("body");
    expect(json.detail[0]?.type).toBe(type);
  });

  it("refuses an unknown or revoked X-API-Key with 401 before any challenge", async () => {
    const revoked = await server.services.accounts.open({ name: "revoked" });
    await server.services.apiKeys.revoke(revoked.key.api_key_id);
    for (const apiKey of [`sk_${"Z".repeat(43)}`, "not-a-key", revoked.key.api_key]) {
      const answer = await postTopup(server.url, { apiKey });
      expect(answer.status).toBe(401);
      expect(answer.body).toMatchObject({ error: { code: "invalid_api_key" } });
    }
  });
});

describe("paying with an on-chain transfer", () => {
  it("gives a new payer an organization, the credits and a key shown once", async () => {
    const paid = await challenge();
    const hash = pay(paid);
    const answer = await postTopup(server.url, {
      authorization: hashCredential(paid, hash, `did:pkh:eip155:4217:${PAYER}`),
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(answer.body).toEqual({
      organization_id: expect.stringMatching(/^org_/),
      credited_cents: 500,
      api_key: expect.stringMatching(/^sk_/),
      api_key_id: expect.stringMatching(/^key_/),
    });
    const receipt = Receipt.deserialize(answer.headers.get("payment-receipt") ?? "");
    expect(receipt).toMatchObject({ status: "success", method: "tempo", reference: hash });

    const balance = await fetch(`${server.url}/v1/balance`, {
      headers: { authorization: `Bearer ${answer.body.api_key}` },
    });
    expect(await balance.json()).toEqual({ balance_dollars: 5 });
    const entries = await server.services.ledger.entries(answer.body.organization_id as string);
    expect(entries).toMatchObject([
      { kind: "topup", amount_nanos: 5_000_000_000, reference: `chain:${hash}` },
    ]);
  });

  it("refills the organization of X-API-Key without a new key", async () => {
    const first = await challenge();
    const opened = await postTopup(server.url, {
      authorization: hashCredential(first, pay(first)),
    });
    const apiKey = opened.body.api_key as string;
    const refill = await challenge(250, apiKey);
    const answer = await postTopup(server.url, {
      amountCents: 250,
      apiKey,
      authorization: hashCredential(refill, pay(refill)),
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toEqual({
      organization_id: opened.body.organization_id,
      credited_cents: 250,
      api_key: null,
      api_key_id: null,
    });
    const balance = await server.services.ledger.balance(opened.body.organization_id as string);
    expect(balance).toBe(7_500_000_000);
  });

  it("redeems a credential once: the replay gets 402 invalid-challenge", async () => {
    const paid = await challenge();
    const authorization = hashCredential(paid, pay(paid));
    expect((await postTopup(server.url, { authorization })).status).toBe(200);
    const before = await organizationCount();
    const replay = await postTopup(server.url, { authorization });
    expectProblem(replay, "invalid-challenge");
    expect(replay.body.challengeId).toBe(paid.id);
    expect(await organizationCount()).toBe(before);
  });

  it("refuses a mined transaction hash presented with another challenge", async () => {
    const first = await challenge();
    const hash = pay(first);
    expect(
      (await postTopup(server.url, { authorization: hashCredential(first, hash) })).status,
    ).toBe(200);
    const second = await challenge();
    expectProblem(
      await postTopup(server.url, { authorization: hashCredential(second, hash) }),
      "verification-failed",
    );
  });

  it("redeems one payment reference once, even when it pays two challenges", async () => {
    const [first, second] = [await challenge(), await challenge()];
    const amount = BigInt(first.request.amount as string);
    const transfer = (paid: WireChallenge) => ({
      from: PAYER,
      to: RECIPIENT,
      amount,
      memo: attributionMemo(paid.id, REALM),
    });
    const hash = node.mineBatch(PAYER, [transfer(first), transfer(second)]);
    const redeemed = await postTopup(server.url, { authorization: hashCredential(first, hash) });
    expect(redeemed.status).toBe(200);
    const again = await postTopup(server.url, { authorization: hashCredential(second, hash) });
    expectProblem(again, "verification-failed");
    expect(again.body.detail).toContain("already been redeemed");
  });

  it("refuses a tampered request, a forged id and a retry with another amount", async () => {
    const paid = await challenge();
    const hash = pay(paid);
    const tampered = Buffer.from(JSON.stringify({ ...paid.request, amount: "1" })).toString(
      "base64url",
    );
    expectProblem(
      await postTopup(server.url, {
        authorization: paymentCredential(paid, { type: "hash", hash }, { request: tampered }),
      }),
      "invalid-challenge",
    );
    expectProblem(
      await postTopup(server.url, {
        authorization: hashCredential({ ...paid, id: forgedId(paid.id) }, hash),
      }),
      "invalid-challenge",
    );
    const wrongAmount = await postTopup(server.url, {
      amountCents: 1000,
      authorization: hashCredential(paid, hash),
    });
    expectProblem(wrongAmount, "invalid-challenge");
    expect(wrongAmount.body.detail).toContain("amount_cents (1000)");
    // Still redeemable for the amount it was issued for.
    expect(
      (await postTopup(server.url, { authorization: hashCredential(paid, hash) })).status,
    ).toBe(200);
  });

  it("refuses transfers that do not pay this challenge", async () => {
    const cases: [string, Parameters<typeof pay>[1]][] = [
      ["another recipient", { to: STRANGER }],
      ["another token", { token: "0x20c0000000000000000000000000000000000000" }],
      ["no memo", { memo: undefined }],
      ["a reverted transaction", { failed: true }],
    ];
    const before = await organizationCount();
    for (const [what, overrides] of cases) {
      const paid = await challenge();
      const hash = pay(paid, overrides);
      const answer = await postTopup(server.url, { authorization: hashCredential(paid, hash) });
      expect(answer.status, what).toBe(402);
      expectProblem(answer, "verification-failed");
    }
    const paid = await challenge();
    const otherSender = await postTopup(server.url, {
      authorization: hashCredential(paid, pay(paid), `did:pkh:eip155:4217:${STRANGER}`),
    });
    expectProblem(otherSender, "verification-failed");
    // A transaction not on chain may still be mined: the same challenge again, not fresh ones.
    const unknown = await postTopup(server.url, {
      authorization: hashCredential(paid, `0x${"ab".repeat(32)}`),
    });
    expect(unknown.status).toBe(402);
    expect(unknown.body).toMatchObject({ type: expect.stringContaining("verification-failed") });
    expect(unknown.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(challengesOf(unknown).map((again) => again.id)).toEqual([paid.id]);
    expect(await organizationCount()).toBe(before);
  });

  it("refuses malformed credentials", async () => {
    const paid = await challenge();
    for (const authorization of [
      "Payment !!!",
      `Payment ${Buffer.from("[1]").toString("base64url")}`,
      paymentCredential(paid, { type: "hash", hash: "0x1234" }),
      paymentCredential(paid, { type: "cheque" }),
    ]) {
      expectProblem(await postTopup(server.url, { authorization }), "malformed-credential");
    }
  });

  it("refuses an expired challenge with payment-expired", async () => {
    const paid = await challenge();
    const hash = pay(paid);
    clock.advanceSeconds(301);
    expectProblem(
      await postTopup(server.url, { authorization: hashCredential(paid, hash) }),
      "payment-expired",
    );
  });
});

describe("/openapi.json", () => {
  it("documents the operation with its x-payment-info offers and its answers", async () => {
    const contract = await OpenApiContract.fetch(server.url);
    const operation = contract.operation("POST", "/v1/mpp/topup") as unknown as {
      "x-payment-info": { offers: Record<string, unknown>[] };
      security: unknown[];
    };
    expect(operation.security).toEqual([]);
    expect(operation["x-payment-info"].offers).toEqual([
      expect.objectContaining({
        intent: "charge",
        method: "tempo",
        amount: "5000000",
        currency: USDC,
      }),
      expect.objectContaining({
        intent: "charge",
        method: "stripe",
        amount: "500",
        currency: "usd",
      }),
    ]);
    const validate = new Ajv2020({ strict: false }).compile(X_PAYMENT_INFO_SCHEMA);
    expect(validate(operation["x-payment-info"]), JSON.stringify(validate.errors)).toBe(true);
    const challenged = await postTopup(server.url);
    expect(
      contract.responseProblems("POST", "/v1/mpp/topup", {
        status: 402,
        contentType: challenged.headers.get("content-type"),
        body: challenged.body,
      }),
    ).toEqual([]);
    const paid = challengeFor(challenged, "tempo");
    const ok = await postTopup(server.url, { authorization: hashCredential(paid, pay(paid)) });
    expect(
      contract.responseProblems("POST", "/v1/mpp/topup", {
        status: ok.status,
        contentType: ok.headers.get("content-type"),
        body: ok.body,
      }),
    ).toEqual([]);
  });
});

describe("without a reachable chain node", () => {
  it("answers 503 with Retry-After and credits nothing", async () => {
    const paid = await challenge();
    const hash = pay(paid);
    const before = await organizationCount();
    await node.stop();
    try {
      const answer = await postTopup(server.url, { authorization: hashCredential(paid, hash) });
      expect(answer.status).toBe(503);
      expect(answer.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(answer.body).toMatchObject({ error: { code: "payment_verifier_unavailable" } });
      expect(await organizationCount()).toBe(before);
    } finally {
      node = await new FakeNode().start();
    }
  });
});

describe("servers without payments", () => {
  it("answer the top-up with 404 payments_not_configured, and keep it out of /openapi.json", async () => {
    const plain = await startTestServer();
    try {
      const answer = await postTopup(plain.url);
      expect(answer.status).toBe(404);
      expect(answer.body).toMatchObject({ error: { code: "payments_not_configured" } });
      const contract = await OpenApiContract.fetch(plain.url);
      expect(contract.operation("POST", "/v1/mpp/topup")).toBeUndefined();
    } finally {
      await plain.close();
    }
  });

  it("do not point an organization out of credits at a top-up they do not offer", async () => {
    const priced = await startTestServer({ config: { models: [PRICED_MODEL] } });
    try {
      const response = await askWithoutCredits(priced.url, (await priced.createOrg("0")).apiKey);
      expect(response.status).toBe(402);
      expect(response.headers.get("link")).toBeNull();
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("insufficient_credits");
      expect(body.error.message).not.toContain("/v1/mpp/topup");
    } finally {
      await priced.close();
    }
  });
});

describe("servers that take payments", () => {
  it("point an organization out of credits at the top-up (Link rel=payment)", async () => {
    const priced = await startTopupServer({ rpcUrl: node.url, models: [PRICED_MODEL] });
    try {
      const organization = await priced.services.organizations.create("empty");
      const key = await priced.services.apiKeys.issue(organization.id);
      const response = await askWithoutCredits(priced.url, key.api_key);
      expect(response.status).toBe(402);
      expect(response.headers.get("link")).toBe('</v1/mpp/topup>; rel="payment"');
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("insufficient_credits");
      expect(body.error.message).toContain("POST /v1/mpp/topup");
    } finally {
      await priced.close();
    }
  });
});
