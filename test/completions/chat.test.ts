import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type CompletionsEnv, MODEL, startCompletionsEnv } from "./support/env.js";
import { costNanos, usd } from "./support/money.js";
import { sibylUsage, thinkingOf, upstreamBody } from "./support/sibyl-types.js";

let env: CompletionsEnv;
let apiKey: string;

beforeAll(async () => {
  env = await startCompletionsEnv();
  apiKey = (await env.org("10")).apiKey;
});
afterEach(() => env.fake.reset());
afterAll(async () => {
  await env.close();
});

describe.each(["/v1", "/v1/compat"] as const)("chat completions at %s", (prefix) => {
  it("answers with the upstream reply, its usage and its cost", async () => {
    env.fake.enqueue({
      contents: ["Probably not."],
      usage: { prompt_tokens: 21, completion_tokens: 4 },
    });
    const completion = await env.client(apiKey, prefix).chat.completions.create({
      model: MODEL,
      messages: [{ role: "user", content: "Will it rain in Lisbon tomorrow?" }],
    });
    expect(completion.object).toBe("chat.completion");
    expect(completion.id).toMatch(/^chatcmpl-/);
    expect(completion.model).toBe(MODEL);
    expect(completion.choices).toHaveLength(1);
    expect(completion.choices[0]?.index).toBe(0);
    expect(completion.choices[0]?.message.role).toBe("assistant");
    expect(completion.choices[0]?.message.content).toBe("Probably not.");
    expect(completion.choices[0]?.finish_reason).toBe("stop");
    expect(thinkingOf(completion.choices[0]?.message)).toBeNull();
    const usage = sibylUsage(completion.usage);
    expect(usage).toMatchObject({ prompt_tokens: 21, completion_tokens: 4, total_tokens: 25 });
    expect(usage.inference_cost_usd).toBe(usd(costNanos(21, 4)));
    expect(usage.cost_usd).toBe(usage.inference_cost_usd);
    expect(env.fake.requests).toHaveLength(1);
    expect(env.fake.requests[0]?.path).toBe("/v1/chat/completions");
    const sent = upstreamBody(env.fake.requests[0]?.body);
    expect(sent.stream).toBe(false);
    expect(sent.messages?.at(-1)).toEqual({
      role: "user",
      content: "Will it rain in Lisbon tomorrow?",
    });
  });

  it("returns n choices in index order", async () => {
    env.fake.enqueue({ contents: ["first", "second", "third"] });
    const completion = await env.client(apiKey, prefix).chat.completions.create({
      model: MODEL,
      n: 3,
      messages: [{ role: "user", content: "Q" }],
    });
    expect(completion.choices.map((choice) => [choice.index, choice.message.content])).toEqual([
      [0, "first"],
      [1, "second"],
      [2, "third"],
    ]);
  });

  it("bills its own token count when the upstream reports no usage", async () => {
    env.fake.enqueue({ contents: ["A short reply."], usage: null });
    const completion = await env.client(apiKey, prefix).chat.completions.create({
      model: MODEL,
      messages: [{ role: "user", content: "Q" }],
    });
    const usage = sibylUsage(completion.usage);
    expect(usage.prompt_tokens).toBeGreaterThan(0);
    expect(usage.completion_tokens).toBeGreaterThan(0);
    expect(usage.cost_usd).toBe(usd(costNanos(usage.prompt_tokens, usage.completion_tokens)));
  });
});
