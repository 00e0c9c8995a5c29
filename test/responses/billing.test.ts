import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type CompletionsEnv, MODEL, startCompletionsEnv } from "../completions/support/env.js";
import { balanceNanos, charges, costNanos, usd } from "../completions/support/money.js";
import { post } from "../completions/support/sse.js";
import { namedEvents, responseOf } from "./support/responses.js";

let env: CompletionsEnv;

beforeAll(async () => {
  env = await startCompletionsEnv();
});
afterEach(() => env.fake.reset());
afterAll(async () => {
  await env.close();
});

const question = "Will the bill pass?";
const usage = { prompt_tokens: 120, completion_tokens: 30 };

async function chargedFor(path: string, body: Record<string, unknown>): Promise<number> {
  const org = await env.org("1");
  env.fake.enqueue({ contents: ["It will pass narrowly."], usage });
  const response = await post(env.server.url, path, org.apiKey, body);
  expect(response.status).toBe(200);
  await response.text();
  const entries = await charges(env.server.services, org.organizationId);
  expect(entries).toHaveLength(1);
  const charged = -(entries[0]?.amount_nanos ?? 0);
  expect(await balanceNanos(env.server.url, org.apiKey)).toBe(1e9 - charged);
  return charged;
}

describe("billing", () => {
  it("charges a response exactly what the same chat completion costs", async () => {
    const messages = [{ role: "user", content: question }];
    const chat = await chargedFor("/v1/chat/completions", { model: MODEL, messages });
    const response = await chargedFor("/v1/responses", { model: MODEL, input: question });
    const streamed = await chargedFor("/v1/responses", {
      model: MODEL,
      input: question,
      stream: true,
    });
    expect(chat).toBe(costNanos(120, 30));
    expect(response).toBe(chat);
    expect(streamed).toBe(chat);
  });

  it("reports in usage what it charged", async () => {
    const org = await env.org("1");
    env.fake.enqueue({ contents: ["Yes."], usage });
    const response = await post(env.server.url, "/v1/responses", org.apiKey, {
      model: MODEL,
      input: question,
      stream: true,
    });
    const reported = responseOf(namedEvents(await response.text()).at(-1)).usage;
    const entries = await charges(env.server.services, org.organizationId);
    expect(reported.cost_usd).toBe(usd(-(entries[0]?.amount_nanos ?? 0)));
  });

  it.each([false, true])(
    "answers 402 without credits (stream %s), calling no model",
    async (stream) => {
      const org = await env.org("0");
      const response = await post(env.server.url, "/v1/responses", org.apiKey, {
        model: MODEL,
        input: question,
        stream,
      });
      expect(response.status).toBe(402);
      const body = (await response.json()) as { error: { code: string; type: string } };
      expect(body.error).toMatchObject({
        code: "insufficient_credits",
        type: "insufficient_credits",
      });
      expect(env.fake.requests).toHaveLength(0);
    },
  );

  it("charges nothing for a failed upstream call", async () => {
    const org = await env.org("1");
    env.fake.enqueue({ status: 500, errorBody: { error: { message: "boom" } } });
    env.fake.setDefault({ status: 500, errorBody: { error: { message: "boom" } } });
    const response = await post(env.server.url, "/v1/responses", org.apiKey, {
      model: MODEL,
      input: question,
    });
    expect(response.status).toBeGreaterThanOrEqual(500);
    expect(await charges(env.server.services, org.organizationId)).toEqual([]);
    expect(await balanceNanos(env.server.url, org.apiKey)).toBe(1e9);
  });
});
