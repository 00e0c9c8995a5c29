import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeCardApi } from "./support/fake-card-api.js";
import {
  challengeFor,
  paymentCredential,
  postTopup,
  type TopupAnswer,
  type WireChallenge,
} from "./support/payment-flow.js";
import { startTopupServer, type TopupServer } from "./support/topup-server.js";

let cards: FakeCardApi;
let server: TopupServer;

beforeAll(async () => {
  cards = await new FakeCardApi().start();
  server = await startTopupServer({ cardApiBase: cards.url });
});

afterAll(async () => {
  await server?.close();
  await cards?.stop();
});

async function challenge(amountCents = 500): Promise<WireChallenge> {
  const answer = await postTopup(server.url, { amountCents });
  expect(answer.status).toBe(402);
  return challengeFor(answer, "stripe");
}

function expectProblem(answer: TopupAnswer, code: string): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(402);
  expect(answer.body).toMatchObject({ type: `https://paymentauth.org/problems/${code}` });
  expect(answer.headers.get("www-authenticate")).toMatch(/^Payment /);
}

describe("paying by card with a shared payment token", () => {
  it("offers only the configured rail", async () => {
    const answer = await postTopup(server.url);
    expect(answer.headers.get("www-authenticate")?.match(/Payment /g)).toHaveLength(1);
  });

  it("confirms one PaymentIntent, keyed by the challenge, and opens an account", async () => {
    const paid = await challenge(2_500);
    const spt = cards.issueToken();
    const answer = await postTopup(server.url, {
      amountCents: 2_500,
      authorization: paymentCredential(paid, { spt }),
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toMatchObject({ credited_cents: 2_500, api_key: expect.any(String) });
    const sent = cards.requests.at(-1);
    expect(sent?.headers["idempotency-key"]).toBe(paid.id);
    expect(Object.fromEntries(sent?.form ?? [])).toMatchObject({
      amount: "2500",
      currency: "usd",
      confirm: "true",
      shared_payment_granted_token: spt,
    });
    const entries = await server.services.ledger.entries(answer.body.organization_id as string);
    expect(entries).toMatchObject([
      { kind: "topup", reference: expect.stringMatching(/^card:pi_/) },
    ]);
  });

  it("redeems once: a replay gets the same PaymentIntent back and a 402", async () => {
    const paid = await challenge();
    const authorization = paymentCredential(paid, { spt: cards.issueToken() });
    expect((await postTopup(server.url, { authorization })).status).toBe(200);
    const created = cards.created;
    expectProblem(await postTopup(server.url, { authorization }), "invalid-challenge");
    expect(cards.created).toBe(created);
  });

  it("charges a challenge once, whatever token comes with it", async () => {
    const paid = await challenge();
    const first = paymentCredential(paid, { spt: cards.issueToken({ declined: true }) });
    expectProblem(await postTopup(server.url, { authorization: first }), "verification-failed");
    const second = paymentCredential(paid, { spt: cards.issueToken() });
    const answer = await postTopup(server.url, { authorization: second });
    expectProblem(answer, "verification-failed");
    expect(answer.body.detail).toContain("same parameters");
  });

  it("refuses declined and unknown tokens", async () => {
    for (const spt of [cards.issueToken({ declined: true }), "spt_unknown"]) {
      const answer = await postTopup(server.url, {
        authorization: paymentCredential(await challenge(), { spt }),
      });
      expectProblem(answer, "verification-failed");
    }
    expectProblem(
      await postTopup(server.url, { authorization: paymentCredential(await challenge(), {}) }),
      "malformed-credential",
    );
  });

  it("answers 503 with Retry-After when the processor cannot be reached", async () => {
    const paid = await challenge();
    await cards.stop();
    try {
      const answer = await postTopup(server.url, {
        authorization: paymentCredential(paid, { spt: "spt_any" }),
      });
      expect(answer.status).toBe(503);
      expect(answer.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
      expect(answer.body).toMatchObject({ error: { code: "payment_verifier_unavailable" } });
    } finally {
      const restarted = new FakeCardApi();
      cards = await restarted.start();
    }
  });
});
