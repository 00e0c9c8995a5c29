import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { countChatTokens } from "../../src/inference/tokens.js";
import { type CompletionsEnv, MODEL, PRICE, startCompletionsEnv } from "./support/env.js";
import { rejection } from "./support/errors.js";
import { balanceNanos, charges, costNanos, decimalUsd } from "./support/money.js";
import { upstreamBody } from "./support/sibyl-types.js";

let env: CompletionsEnv;

beforeAll(async () => {
  env = await startCompletionsEnv();
});
afterEach(() => env.fake.reset());
afterAll(async () => {
  await env.close();
});

const request = {
  model: MODEL,
  max_tokens: 200,
  prediction_date: "2025-06-01",
  messages: [{ role: "user" as const, content: "Will the launch slip past June?" }],
};

/** The hold Sibyl takes: its prompt estimate plus max_tokens at the completion price. */
async function worstCaseNanos(): Promise<number> {
  const probe = await env.org("1");
  env.fake.enqueue({ usage: { prompt_tokens: 1, completion_tokens: 1 } });
  await env.client(probe.apiKey).chat.completions.create(request);
  const sent = upstreamBody(env.fake.requests[0]?.body).messages ?? [];
  const estimate = countChatTokens(
    sent.map((message) => ({
      role: message.role as "system" | "user" | "assistant",
      content: message.content,
    })),
  );
  env.fake.reset();
  return costNanos(estimate, 0) + request.max_tokens * PRICE.completionNanos;
}

describe("insufficient credits", () => {
  it("answers 402 insufficient_credits without calling the model", async () => {
    const org = await env.org("0.0001");
    const error = await rejection(env.client(org.apiKey).chat.completions.create(request));
    expect(error.status).toBe(402);
    expect(error.code).toBe("insufficient_credits");
    expect(error.message).toMatch(/credit/i);
    expect(env.fake.requests).toHaveLength(0);
    expect(await balanceNanos(env.server.url, org.apiKey)).toBe(100_000);
    expect(await charges(env.server.services, org.organizationId)).toEqual([]);
  });

  it("answers 402 before a stream starts", async () => {
    const org = await env.org("0.0001");
    const error = await rejection(
      env.client(org.apiKey).chat.completions.create({ ...request, stream: true }),
    );
    expect(error.status).toBe(402);
    expect(error.code).toBe("insufficient_credits");
    expect(env.fake.requests).toHaveLength(0);
  });

  it("answers 402 for text completions", async () => {
    const org = await env.org("0.0001");
    const error = await rejection(
      env.client(org.apiKey).completions.create({ model: MODEL, prompt: "Q", max_tokens: 200 }),
    );
    expect(error.status).toBe(402);
    expect(env.fake.requests).toHaveLength(0);
  });

  it("needs the worst case, not the likely cost, and accepts exactly the worst case", async () => {
    const worst = await worstCaseNanos();
    const short = await env.org(decimalUsd(worst - 1));
    const refused = await rejection(env.client(short.apiKey).chat.completions.create(request));
    expect(refused.status).toBe(402);
    expect(env.fake.requests).toHaveLength(0);

    const exact = await env.org(decimalUsd(worst));
    env.fake.enqueue({ usage: { prompt_tokens: 10, completion_tokens: 10 } });
    const completion = await env.client(exact.apiKey).chat.completions.create(request);
    expect(completion.choices).toHaveLength(1);
    expect(await balanceNanos(env.server.url, exact.apiKey)).toBe(worst - costNanos(10, 10));
  });

  it("holds max_tokens for every choice", async () => {
    const worst = await worstCaseNanos();
    const org = await env.org(decimalUsd(worst + PRICE.completionNanos));
    const error = await rejection(
      env.client(org.apiKey).chat.completions.create({ ...request, n: 2 }),
    );
    expect(error.status).toBe(402);
    expect(env.fake.requests).toHaveLength(0);
  });
});
