import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";

/** A priced model whose worst case (4,096 completion tokens) is far above a small balance. */
const MODEL = {
  id: "priced-baseline",
  provider: "baseline",
  max_completion_tokens: 4096,
  pricing: { prompt: "0.0000001", completion: "0.00001" },
};

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ config: { models: [MODEL] } });
});

afterAll(async () => {
  await server?.close();
});

async function chat(apiKey: string, maxTokens?: number) {
  const response = await fetch(`${server.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({
      model: MODEL.id,
      messages: [{ role: "user", content: "Will it rain in Paris tomorrow?" }],
      ...(maxTokens === undefined ? {} : { max_tokens: maxTokens }),
    }),
  });
  const body = (await response.json()) as {
    error: { message: string; code: string; param: string | null };
  };
  return { status: response.status, error: body.error };
}

/** The max_tokens a 402 message says fits. */
function affordableOf(message: string): number {
  const match = /With max_tokens (\d+) or less it fits/.exec(message);
  if (!match) throw new Error(`no affordable max_tokens in: ${message}`);
  return Number(match[1]);
}

describe("a 402 for want of credit says what would fit", () => {
  it("names the hold, the balance and the largest max_tokens, which is exactly the largest that runs", async () => {
    const { apiKey } = await server.createOrg("0.01");
    const refused = await chat(apiKey);
    expect(refused.status).toBe(402);
    expect(refused.error.code).toBe("insufficient_credits");
    expect(refused.error.message).toContain("the model's maximum of 4096 completion tokens");
    expect(refused.error.message).toMatch(/This request holds up to \$0\.04\d+/);
    expect(refused.error.message).toContain("The organization's balance is $0.01.");
    const affordable = affordableOf(refused.error.message);
    expect(affordable).toBeGreaterThan(0);
    expect(affordable).toBeLessThan(1000);
    const over = await chat(apiKey, affordable + 1);
    expect(over.status).toBe(402);
    expect(over.error.message).toContain(`max_tokens ${affordable + 1} completion tokens`);
    expect(affordableOf(over.error.message)).toBe(affordable);
    expect((await chat(apiKey, affordable)).status).toBe(200);
  });

  it("says when not even one token fits", async () => {
    const { apiKey } = await server.createOrg("0");
    const refused = await chat(apiKey, 10);
    expect(refused.status).toBe(402);
    expect(refused.error.message).toContain("The organization's balance is $0.");
    expect(refused.error.message).toContain("Not even max_tokens 1 fits.");
  });

  it("refuses with 403 at the key's spend limit, says paying will not help, and what fits under it", async () => {
    const { organizationId } = await server.createOrg("1");
    const key = await server.services.apiKeys.issue(organizationId, undefined, {
      scope: "inference",
      spendLimitNanos: 5_000_000,
    });
    const refused = await chat(key.api_key);
    expect(refused.status).toBe(403);
    expect(refused.error.code).toBe("key_spend_limit_reached");
    expect(refused.error.message).toContain("will not help");
    expect(refused.error.message).toContain("this key may spend $0.005 more");
    expect(refused.error.param).toBe("max_tokens");
    const affordable = affordableOf(refused.error.message);
    expect((await chat(key.api_key, affordable + 1)).status).toBe(403);
    expect((await chat(key.api_key, affordable)).status).toBe(200);
  });
});
