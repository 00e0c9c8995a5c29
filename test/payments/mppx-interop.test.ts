import { Receipt } from "mppx";
import { Mppx, stripe, tempo } from "mppx/client";
import { createClient, http } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { tempo as tempoChain } from "viem/tempo/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeCardApi } from "./support/fake-card-api.js";
import { FakeNode } from "./support/fake-node.js";
import { startTopupServer, type TopupServer } from "./support/topup-server.js";

let node: FakeNode;
let cards: FakeCardApi;
let server: TopupServer;

beforeAll(async () => {
  node = await new FakeNode().start();
  cards = await new FakeCardApi().start();
  // The default configuration: standard clients recognise the registered method names.
  server = await startTopupServer({ rpcUrl: node.url, cardApiBase: cards.url });
});

afterAll(async () => {
  await server?.close();
  await node?.stop();
  await cards?.stop();
});

const topupInit = (amountCents: number): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ amount_cents: amountCents }),
});

async function forecastWith(apiKey: string): Promise<Response> {
  return fetch(`${server.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({
      model: "sibyl-baseline",
      answer_type: "binary",
      messages: [{ role: "user", content: "Will it rain in Paris tomorrow?" }],
    }),
  });
}

describe("the mppx client", () => {
  it("pays Sibyl's 402 with a signed Tempo transaction and uses the key it gets", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const client = Mppx.create({
      polyfill: false,
      methods: [
        tempo.charge({
          account,
          getClient: () => createClient({ chain: tempoChain, transport: http(node.url) }),
        }),
      ],
    });
    const response = await client.fetch(`${server.url}/v1/mpp/topup`, topupInit(750));
    const body = (await response.json()) as Record<string, unknown>;
    expect(response.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ credited_cents: 750, api_key: expect.stringMatching(/^sk_/) });
    const receipt = Receipt.fromResponse(response);
    expect(receipt).toMatchObject({ status: "success", method: "tempo" });
    // Sibyl broadcast the payer's transaction; the node mined it.
    expect(node.calls).toContain("eth_sendRawTransactionSync");
    const entries = await server.services.ledger.entries(body.organization_id as string);
    expect(entries).toMatchObject([
      { kind: "topup", amount_nanos: 7_500_000_000, reference: `chain:${receipt.reference}` },
    ]);

    const completion = await forecastWith(body.api_key as string);
    expect(completion.status).toBe(200);
    const answer = (await completion.json()) as { choices: { message: { content: string } }[] };
    expect(answer.choices[0]?.message.content).toContain("<answer>");
  });

  it("pays with a shared payment token on the card rail", async () => {
    const client = Mppx.create({
      polyfill: false,
      methods: [
        stripe.charge({
          paymentMethod: "pm_card_visa",
          createToken: async () => cards.issueToken(),
        }),
      ],
    });
    const response = await client.fetch(`${server.url}/v1/mpp/topup`, topupInit(500));
    const body = (await response.json()) as Record<string, unknown>;
    expect(response.status, JSON.stringify(body)).toBe(200);
    expect(Receipt.fromResponse(response)).toMatchObject({
      method: "stripe",
      reference: expect.stringMatching(/^pi_/),
    });
    expect((await forecastWith(body.api_key as string)).status).toBe(200);
  });
});
