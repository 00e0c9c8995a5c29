import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeNode } from "../payments/support/fake-node.js";
import { challengeFor, paymentCredential, postTopup } from "../payments/support/payment-flow.js";
import { startTopupServer, type TopupServer } from "../payments/support/topup-server.js";
import { openAISchemas } from "./support/openai-schemas.js";

const schemas = openAISchemas();
const PRICED = {
  id: "priced-baseline",
  provider: "baseline" as const,
  max_completion_tokens: 64,
  pricing: { prompt: "0.001", completion: "0.001" },
};

/**
 * A server that takes payments answers an organization out of credits, and a payment that
 * proves nothing, with bodies of its own: they must still be OpenAI's error to an OpenAI client.
 */
describe("402s of a server that takes payments match OpenAI's ErrorResponse", () => {
  let node: FakeNode;
  let server: TopupServer;
  let apiKey: string;

  beforeAll(async () => {
    node = await new FakeNode().start();
    server = await startTopupServer({ rpcUrl: node.url, models: [PRICED] });
    const organization = await server.services.organizations.create("no credits");
    apiKey = (await server.services.apiKeys.issue(organization.id)).api_key;
  });
  afterAll(async () => {
    await server?.close();
    await node?.stop();
  });

  async function ask(authorization: Record<string, string>) {
    const response = await fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", ...authorization },
      body: JSON.stringify({ model: PRICED.id, messages: [{ role: "user", content: "Rain?" }] }),
    });
    expect(response.status).toBe(402);
    return (await response.json()) as Record<string, unknown>;
  }

  it("insufficient credits with challenges, and a retry whose credential pays nothing", async () => {
    const refused = await ask({ authorization: `Bearer ${apiKey}` });
    schemas.assertConforms("ErrorResponse", refused, "insufficient credits");
    const problem = await ask({ authorization: "Payment !!!", "x-api-key": apiKey });
    expect(problem.type).toMatch(/malformed-credential$/);
    schemas.assertConforms("ErrorResponse", problem, "payment problem");
  });

  it("the top-up route's challenge and its refusal of an unknown payment", async () => {
    const offered = await postTopup(server.url);
    expect(offered.status).toBe(402);
    schemas.assertConforms("ErrorResponse", offered.body, "top-up challenge");
    const unknown = await postTopup(server.url, {
      authorization: paymentCredential(challengeFor(offered, "tempo"), {
        type: "hash",
        hash: `0x${"ab".repeat(32)}`,
      }),
    });
    expect(unknown.status).toBe(402);
    expect(unknown.body.challengeId).toBeTypeOf("string");
    schemas.assertConforms("ErrorResponse", unknown.body, "unknown payment");
  });
});
