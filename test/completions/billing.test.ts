import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type CompletionsEnv, MODEL, startCompletionsEnv } from "./support/env.js";
import { balanceNanos, charges, costNanos, usd } from "./support/money.js";
import { sibylUsage } from "./support/sibyl-types.js";

let env: CompletionsEnv;

beforeAll(async () => {
  env = await startCompletionsEnv();
});
afterEach(() => env.fake.reset());
afterAll(async () => {
  await env.close();
});

const messages = [{ role: "user" as const, content: "Will the index close higher?" }];

describe("charges", () => {
  it("debits exactly the reported cost of every call, one ledger entry per completion", async () => {
    const org = await env.org("1");
    const client = env.client(org.apiKey);
    const initial = await balanceNanos(env.server.url, org.apiKey);
    expect(initial).toBe(1_000_000_000);

    const scripted = [
      { prompt_tokens: 17, completion_tokens: 3 },
      { prompt_tokens: 250, completion_tokens: 999 },
      { prompt_tokens: 1, completion_tokens: 0 },
      { prompt_tokens: 40, completion_tokens: 41 },
    ];
    const ids: string[] = [];
    const reported: number[] = [];
    for (const [position, usage] of scripted.entries()) {
      env.fake.enqueue({ contents: ["Higher."], usage });
      const stream = position % 2 === 1;
      if (stream) {
        const completion = await client.chat.completions
          .stream({ model: MODEL, messages, stream_options: { include_usage: true } })
          .finalChatCompletion();
        ids.push(completion.id);
        reported.push(sibylUsage(completion.usage).cost_usd);
      } else {
        const completion = await client.chat.completions.create({ model: MODEL, messages });
        ids.push(completion.id);
        reported.push(sibylUsage(completion.usage).cost_usd);
      }
    }
    const expected = scripted.map((usage) =>
      costNanos(usage.prompt_tokens, usage.completion_tokens),
    );
    expect(reported).toEqual(expected.map(usd));

    const spent = expected.reduce((sum, nanos) => sum + nanos, 0);
    const reportedTotal = reported.reduce((sum, cost) => sum + cost, 0);
    expect(Math.round(reportedTotal * 1e9)).toBe(spent);
    expect(await balanceNanos(env.server.url, org.apiKey)).toBe(initial - spent);

    const entries = await charges(env.server.services, org.organizationId);
    expect(entries.map((entry) => entry.reference)).toEqual(ids);
    expect(entries.map((entry) => entry.amount_nanos)).toEqual(expected.map((nanos) => -nanos));
    expect(entries.at(-1)?.balance_after_nanos).toBe(initial - spent);
  });

  it("charges text completions the same way", async () => {
    const org = await env.org("1");
    env.fake.enqueue({ contents: [" yes"], usage: { prompt_tokens: 5, completion_tokens: 2 } });
    const completion = await env.client(org.apiKey).completions.create({
      model: MODEL,
      prompt: "Answer:",
    });
    const usage = sibylUsage(completion.usage);
    expect(usage.cost_usd).toBe(usd(costNanos(5, 2)));
    expect(await balanceNanos(env.server.url, org.apiKey)).toBe(1e9 - costNanos(5, 2));
    const entries = await charges(env.server.services, org.organizationId);
    expect(entries.map((entry) => [entry.reference, entry.amount_nanos])).toEqual([
      [completion.id, -costNanos(5, 2)],
    ]);
  });

  it("reports the dollar cost as prompt and completion tokens times their prices", async () => {
    const org = await env.org("1");
    env.fake.enqueue({ usage: { prompt_tokens: 123, completion_tokens: 456 } });
    const completion = await env.client(org.apiKey).chat.completions.create({
      model: MODEL,
      messages,
    });
    const usage = sibylUsage(completion.usage);
    // 123 × $0.000001 + 456 × $0.000002 = $0.001035
    expect(usage.cost_usd).toBe(0.001035);
    expect(usage.inference_cost_usd).toBe(0.001035);
  });
});
