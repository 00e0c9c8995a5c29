import { Challenge, Receipt } from "mppx";
import { Mppx, tempo } from "mppx/client";
import OpenAI, { toFile } from "openai";
import { createClient, http } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { tempo as tempoChain } from "viem/tempo/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { FakeNode } from "./support/fake-node.js";
import { attributionMemo, paymentCredential, type WireChallenge } from "./support/payment-flow.js";
import { RECIPIENT, startTopupServer, type TopupServer } from "./support/topup-server.js";

const CHEAP = {
  id: "priced-baseline",
  provider: "baseline" as const,
  max_completion_tokens: 64,
  pricing: { prompt: "0.001", completion: "0.001" },
};
/** Each line may cost over $3 at the batch price: three together more than the default top-up. */
const DEAR = { ...CHEAP, id: "dear-baseline", pricing: { prompt: "0.1", completion: "0.1" } };
const FREE = { id: "free-baseline", provider: "baseline" as const, max_completion_tokens: 64 };
const QUESTION = "Will it rain in Paris tomorrow?";
const PAYER = "0x4444444444444444444444444444444444444444";

function batchFile(model: string, lines: number): string {
  return Array.from({ length: lines }, (_, i) =>
    JSON.stringify({
      custom_id: `q${i}`,
      method: "POST",
      url: "/v1/chat/completions",
      body: { model, messages: [{ role: "user", content: QUESTION }] },
    }),
  ).join("\n");
}

describe.each(["sqlite", "postgres"] as const)("batch creation out of credit, on %s", (dialect) => {
  let node: FakeNode;
  let database: TestDatabase | null = null;
  let server: TopupServer;

  beforeAll(async () => {
    node = await new FakeNode().start();
    if (dialect === "postgres") database = await createTestDatabase();
    server = await startTopupServer({
      rpcUrl: node.url,
      models: [CHEAP, DEAR, FREE],
      ...(database ? { databaseUrl: database.url } : {}),
    });
  });

  afterAll(async () => {
    await server?.close();
    await database?.drop();
    await node?.stop();
  });

  async function emptyOrganization() {
    const organization = await server.services.organizations.create("agent");
    const key = await server.services.apiKeys.issue(organization.id);
    const files = new OpenAI({ apiKey: key.api_key, baseURL: `${server.url}/v1`, maxRetries: 0 });
    return { organizationId: organization.id, apiKey: key.api_key, files };
  }

  async function upload(files: OpenAI, model: string, lines: number): Promise<string> {
    const file = await files.files.create({
      file: await toFile(Buffer.from(batchFile(model, lines)), "input.jsonl"),
      purpose: "batch",
    });
    return file.id;
  }

  function createBatch(headers: Record<string, string>, inputFileId: string) {
    return fetch(`${server.url}/v1/batches`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({
        input_file_id: inputFileId,
        endpoint: "/v1/chat/completions",
        completion_window: "24h",
      }),
    });
  }

  const challengesOf = (response: Response) =>
    Challenge.deserializeList(response.headers.get("www-authenticate") ?? "") as WireChallenge[];

  async function batchCount(organizationId: string): Promise<number> {
    const rows = await server.services.database.db.query
      .selectFrom("batches")
      .select("id")
      .where("organization_id", "=", organizationId)
      .execute();
    return rows.length;
  }

  it("answers 402 with challenges refilling the organization, and creates nothing", async () => {
    const { organizationId, apiKey, files } = await emptyOrganization();
    const inputFileId = await upload(files, CHEAP.id, 2);
    const response = await createBatch({ authorization: `Bearer ${apiKey}` }, inputFileId);
    expect(response.status).toBe(402);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("link")).toBe('</v1/mpp/topup>; rel="payment"');
    const challenges = challengesOf(response);
    expect(challenges.map((challenge) => challenge.method)).toEqual(["tempo"]);
    expect(challenges[0]?.request).toMatchObject({ amount: "5000000", recipient: RECIPIENT });
    const json = (await response.json()) as { error: { code: string; message: string } };
    expect(json.error.code).toBe("insufficient_credits");
    expect(json.error.message).toContain("the dearest up to $");
    expect(json.error.message).toContain("X-API-Key");
    expect(await batchCount(organizationId)).toBe(0);
  });

  it("asks for at least the whole batch's worst case, so one payment covers every line", async () => {
    const { apiKey, files } = await emptyOrganization();
    const inputFileId = await upload(files, DEAR.id, 3);
    const response = await createBatch({ authorization: `Bearer ${apiKey}` }, inputFileId);
    expect(response.status).toBe(402);
    const [chain] = challengesOf(response);
    // Three lines of 64 completion tokens and the prompt at $0.10 a token, at half price.
    expect(BigInt(chain?.request.amount as string)).toBeGreaterThan(3n * 3_200_000n);
  });

  it("creates the batch when the same request is retried with a credential for a challenge", async () => {
    const { organizationId, apiKey, files } = await emptyOrganization();
    const inputFileId = await upload(files, DEAR.id, 3);
    const refused = await createBatch({ authorization: `Bearer ${apiKey}` }, inputFileId);
    const [chain] = challengesOf(refused);
    if (!chain) throw new Error("no challenge");
    const amount = BigInt(chain.request.amount as string);
    const hash = node.mineTransfer({
      from: PAYER,
      to: RECIPIENT,
      amount,
      memo: attributionMemo(chain.id, chain.realm),
    });
    const authorization = paymentCredential(chain, { type: "hash", hash });
    const paid = await createBatch({ authorization, "x-api-key": apiKey }, inputFileId);
    expect(paid.status, await paid.clone().text()).toBe(200);
    expect(Receipt.fromResponse(paid)).toMatchObject({ method: "tempo", reference: hash });
    expect(await paid.json()).toMatchObject({ object: "batch", input_file_id: inputFileId });
    expect(await batchCount(organizationId)).toBe(1);
    // The payment (base units of a 6-decimal token, 1,000 nano-dollars each) is credited whole.
    expect(await server.services.ledger.balance(organizationId)).toBe(Number(amount) * 1000);
  });

  it("never refuses a batch whose lines all use free models", async () => {
    const { organizationId, apiKey, files } = await emptyOrganization();
    const inputFileId = await upload(files, FREE.id, 3);
    const response = await createBatch({ authorization: `Bearer ${apiKey}` }, inputFileId);
    expect(response.status, await response.clone().text()).toBe(200);
    expect(await batchCount(organizationId)).toBe(1);
  });

  it("lets an agent with the openai SDK and the stock mppx wallet refill and get its batch", async () => {
    const { organizationId, apiKey } = await emptyOrganization();
    const wallet = Mppx.create({
      polyfill: false,
      methods: [
        tempo.charge({
          account: privateKeyToAccount(generatePrivateKey()),
          getClient: () => createClient({ chain: tempoChain, transport: http(node.url) }),
        }),
      ],
    });
    // The only setup: the key also in X-API-Key, and the wallet's fetch.
    const client = new OpenAI({
      apiKey,
      baseURL: `${server.url}/v1`,
      defaultHeaders: { "X-API-Key": apiKey },
      fetch: wallet.fetch,
      maxRetries: 0,
    });
    const inputFileId = await upload(client, CHEAP.id, 2);
    const batch = await client.batches.create({
      input_file_id: inputFileId,
      endpoint: "/v1/chat/completions",
      completion_window: "24h",
    });
    expect(batch.status).toBe("validating");
    expect(await batchCount(organizationId)).toBe(1);
    const topups = (await server.services.ledger.entries(organizationId)).filter(
      (entry) => entry.kind === "topup",
    );
    expect(topups).toMatchObject([{ amount_nanos: 5_000_000_000 }]);
  });
});
