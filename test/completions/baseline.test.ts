import type OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BASELINE, type CompletionsEnv, startCompletionsEnv } from "./support/env.js";
import { balanceNanos } from "./support/money.js";
import { sibylUsage } from "./support/sibyl-types.js";
import { parseEventStream, post } from "./support/sse.js";

let env: CompletionsEnv;
let client: OpenAI;
let apiKey: string;

beforeAll(async () => {
  env = await startCompletionsEnv();
  apiKey = (await env.org("1")).apiKey;
  client = env.client(apiKey);
});
afterAll(async () => {
  await env.close();
});

const QUESTION = "Will the Thames freeze over in London before 2030?";
const messages = [{ role: "user" as const, content: QUESTION }];

describe("the built-in baseline model", () => {
  it("restates the question, deterministically, without any upstream", async () => {
    const first = await client.chat.completions.create({ model: BASELINE, messages });
    const second = await client.chat.completions.create({ model: BASELINE, messages });
    const reply = first.choices[0]?.message.content ?? "";
    expect(reply).toContain(QUESTION);
    expect(second.choices[0]?.message.content).toBe(reply);
    expect(first.choices[0]?.finish_reason).toBe("stop");
    expect(first.model).toBe(BASELINE);
    expect(env.fake.requests).toHaveLength(0);
  });

  it.each([
    ["multiple_choice", "Which party will lead the next government?", "lists no options"],
    ["continuous", "What will US CPI be in March 2026?", "no figure other than dates and years"],
  ])(
    "says why it gives no %s answer, in one reply without a repair call",
    async (type, question, why) => {
      const completion = await client.chat.completions.create({
        model: BASELINE,
        messages: [{ role: "user", content: question }],
        // @ts-expect-error Sibyl's extension field
        answer_type: type,
      });
      const reply = completion.choices[0]?.message.content ?? "";
      expect(reply).toContain(why);
      expect(reply).not.toContain("<answer>");
      // One reply's worth of tokens: the baseline was not asked again.
      const usage = sibylUsage(completion.usage);
      expect(usage.completion_tokens).toBeLessThan(150);
      expect(reply).not.toMatch(/"A":|\bA: \d|\bD: 25%/);
    },
  );

  it("is free and reports usage", async () => {
    const completion = await client.chat.completions.create({ model: BASELINE, messages });
    const usage = sibylUsage(completion.usage);
    expect(usage.prompt_tokens).toBeGreaterThan(0);
    expect(usage.completion_tokens).toBeGreaterThan(0);
    expect(usage.cost_usd).toBe(0);
    expect(await balanceNanos(env.server.url, apiKey)).toBe(1e9);
  });

  it("returns n choices", async () => {
    const completion = await client.chat.completions.create({ model: BASELINE, messages, n: 3 });
    expect(completion.choices.map((choice) => choice.index)).toEqual([0, 1, 2]);
    for (const choice of completion.choices) expect(choice.message.content).toContain(QUESTION);
  });

  it("stops at a stop sequence, leaving it out", async () => {
    const whole = await client.chat.completions.create({ model: BASELINE, messages });
    const text = whole.choices[0]?.message.content ?? "";
    const cut = await client.chat.completions.create({
      model: BASELINE,
      messages,
      stop: ["Thames"],
    });
    expect(cut.choices[0]?.message.content).toBe(text.slice(0, text.indexOf("Thames")));
    expect(cut.choices[0]?.finish_reason).toBe("stop");
    const many = await client.chat.completions.create({
      model: BASELINE,
      messages,
      stop: "London",
    });
    expect(many.choices[0]?.message.content).toBe(text.slice(0, text.indexOf("London")));
  });

  it("stops at max_tokens with finish_reason length", async () => {
    const completion = await client.chat.completions.create({
      model: BASELINE,
      messages,
      max_tokens: 5,
    });
    expect(completion.choices[0]?.finish_reason).toBe("length");
    expect(sibylUsage(completion.usage).completion_tokens).toBeLessThanOrEqual(5);
    const whole = await client.chat.completions.create({ model: BASELINE, messages });
    const full = whole.choices[0]?.message.content ?? "";
    const short = completion.choices[0]?.message.content ?? "";
    expect(short.length).toBeGreaterThan(0);
    expect(full.startsWith(short)).toBe(true);
  });

  it("streams the same reply it returns whole", async () => {
    const whole = await client.chat.completions.create({ model: BASELINE, messages });
    const streamed = await client.chat.completions
      .stream({ model: BASELINE, messages })
      .finalChatCompletion();
    expect(streamed.choices[0]?.message.content).toBe(whole.choices[0]?.message.content);
    expect(streamed.choices[0]?.finish_reason).toBe("stop");
  });

  it("streams with the role first, a usage chunk when asked and [DONE]", async () => {
    const response = await post(env.server.url, "/v1/chat/completions", apiKey, {
      model: BASELINE,
      messages,
      stream: true,
      stream_options: { include_usage: true },
    });
    const { events, done } = parseEventStream(await response.text());
    expect(done).toBe(true);
    const first = events[0] as { choices: { delta: { role?: string } }[] };
    expect(first.choices[0]?.delta.role).toBe("assistant");
    const last = events.at(-1) as { choices: unknown[]; usage: { cost_usd: number } };
    expect(last.choices).toEqual([]);
    expect(last.usage.cost_usd).toBe(0);
  });

  it("answers text completions, per prompt", async () => {
    const completion = await client.completions.create({
      model: BASELINE,
      prompt: ["Will it snow in Madrid?", "Will the euro fall?"],
      n: 2,
    });
    expect(completion.choices).toHaveLength(4);
    expect(completion.choices[0]?.text).toContain("Will it snow in Madrid?");
    expect(completion.choices[1]?.text).toContain("Will it snow in Madrid?");
    expect(completion.choices[2]?.text).toContain("Will the euro fall?");
    expect(completion.choices[3]?.text).toContain("Will the euro fall?");
  });

  it("streams text completions", async () => {
    const stream = await client.completions.create({
      model: BASELINE,
      prompt: QUESTION,
      stream: true,
    });
    let text = "";
    for await (const chunk of stream) text += chunk.choices.map((choice) => choice.text).join("");
    const whole = await client.completions.create({ model: BASELINE, prompt: QUESTION });
    expect(text).toBe(whole.choices[0]?.text);
    expect(text).toContain(QUESTION);
  });
});
