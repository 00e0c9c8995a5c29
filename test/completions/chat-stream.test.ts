import type OpenAI from "openai";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type CompletionsEnv, MODEL, startCompletionsEnv } from "./support/env.js";
import { costNanos, usd } from "./support/money.js";
import { sibylUsage, thinkingOf, upstreamBody } from "./support/sibyl-types.js";
import { parseEventStream, post } from "./support/sse.js";

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

const question = [{ role: "user" as const, content: "Will the bill pass?" }];

async function collect(
  stream: AsyncIterable<OpenAI.ChatCompletionChunk>,
): Promise<OpenAI.ChatCompletionChunk[]> {
  const chunks: OpenAI.ChatCompletionChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

function contentOf(chunks: OpenAI.ChatCompletionChunk[], index = 0): string {
  return chunks
    .flatMap((chunk) => chunk.choices.filter((choice) => choice.index === index))
    .map((choice) => choice.delta.content ?? "")
    .join("");
}

describe.each(["/v1", "/v1/compat"] as const)("streamed chat completions at %s", (prefix) => {
  it("streams the reply with the role first and a finish reason last", async () => {
    env.fake.enqueue({ contents: ["It will pass narrowly."] });
    const stream = await env.client(apiKey, prefix).chat.completions.create({
      model: MODEL,
      messages: question,
      stream: true,
    });
    const chunks = await collect(stream);
    expect(chunks[0]?.object).toBe("chat.completion.chunk");
    expect(chunks[0]?.choices[0]?.delta.role).toBe("assistant");
    expect(chunks.slice(1).every((chunk) => chunk.choices[0]?.delta.role === undefined)).toBe(true);
    expect(contentOf(chunks)).toBe("It will pass narrowly.");
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe("stop");
    expect(new Set(chunks.map((chunk) => chunk.id)).size).toBe(1);
    expect(chunks[0]?.id).toMatch(/^chatcmpl-/);
    expect(chunks.some((chunk) => chunk.usage)).toBe(false);
    expect(upstreamBody(env.fake.requests[0]?.body).stream).toBe(true);
  });

  it("adds a final usage chunk with the cost fields when include_usage is set", async () => {
    env.fake.enqueue({
      contents: ["Yes."],
      usage: { prompt_tokens: 30, completion_tokens: 7 },
    });
    const stream = await env.client(apiKey, prefix).chat.completions.create({
      model: MODEL,
      messages: question,
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = await collect(stream);
    const last = chunks.at(-1);
    expect(last?.choices).toEqual([]);
    const usage = sibylUsage(last?.usage);
    expect(usage).toMatchObject({ prompt_tokens: 30, completion_tokens: 7, total_tokens: 37 });
    expect(usage.inference_cost_usd).toBe(usd(costNanos(30, 7)));
    expect(usage.cost_usd).toBe(usage.inference_cost_usd);
    expect(chunks.slice(0, -1).every((chunk) => !chunk.usage)).toBe(true);
  });

  it("counts the tokens itself for the usage chunk when the upstream reports none", async () => {
    env.fake.enqueue({ contents: ["Unlikely, about one in five."], usage: null });
    const stream = await env.client(apiKey, prefix).chat.completions.create({
      model: MODEL,
      messages: question,
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = await collect(stream);
    const usage = sibylUsage(chunks.at(-1)?.usage);
    expect(usage.prompt_tokens).toBeGreaterThan(0);
    expect(usage.completion_tokens).toBeGreaterThan(0);
    expect(usage.cost_usd).toBe(usd(costNanos(usage.prompt_tokens, usage.completion_tokens)));
  });

  it("assembles a final completion with the stream helper", async () => {
    env.fake.enqueue({ contents: ["Fifty-fifty, leaning yes."] });
    const runner = env.client(apiKey, prefix).chat.completions.stream({
      model: MODEL,
      messages: question,
      stream_options: { include_usage: true },
    });
    const completion = await runner.finalChatCompletion();
    expect(completion.choices[0]?.message.role).toBe("assistant");
    expect(completion.choices[0]?.message.content).toBe("Fifty-fifty, leaning yes.");
    expect(completion.choices[0]?.finish_reason).toBe("stop");
    expect(sibylUsage(completion.usage).cost_usd).toBeGreaterThan(0);
  });

  it("starts every choice with the role when n > 1", async () => {
    env.fake.enqueue({ contents: ["one", "two"] });
    const runner = env.client(apiKey, prefix).chat.completions.stream({
      model: MODEL,
      n: 2,
      messages: question,
    });
    const completion = await runner.finalChatCompletion();
    expect(completion.choices.map((choice) => choice.message.content)).toEqual(["one", "two"]);
  });
});

describe("the event stream on the wire", () => {
  it("is OpenAI server-sent events ending in [DONE]", async () => {
    env.fake.enqueue({ contents: ["Plain answer."] });
    const response = await post(env.server.url, "/v1/chat/completions", apiKey, {
      model: MODEL,
      messages: question,
      stream: true,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(response.headers.get("x-ratelimit-limit")).not.toBeNull();
    const text = await response.text();
    expect(text.endsWith("data: [DONE]\n\n")).toBe(true);
    const { events, done } = parseEventStream(text);
    expect(done).toBe(true);
    expect(events.length).toBeGreaterThan(1);
    expect(events.every((event) => event.object === "chat.completion.chunk")).toBe(true);
  });
});

describe("reasoning", () => {
  it.each(["reasoning_content", "reasoning"] as const)(
    "returns the upstream's %s as message.thinking",
    async (field) => {
      env.fake.enqueue({ contents: ["No."], reasoning: { field, text: "Base rates are low." } });
      const completion = await env.client(apiKey).chat.completions.create({
        model: MODEL,
        messages: question,
      });
      expect(completion.choices[0]?.message.content).toBe("No.");
      expect(thinkingOf(completion.choices[0]?.message)).toBe("Base rates are low.");
      const details = completion.usage?.completion_tokens_details;
      expect(details?.reasoning_tokens).toBeGreaterThan(0);
    },
  );

  it.each(["reasoning_content", "reasoning"] as const)(
    "streams the upstream's %s as delta.thinking",
    async (field) => {
      env.fake.enqueue({ contents: ["No."], reasoning: { field, text: "Base rates are low." } });
      const stream = await env.client(apiKey).chat.completions.create({
        model: MODEL,
        messages: question,
        stream: true,
      });
      const chunks = await collect(stream);
      const thinking = chunks.map((chunk) => thinkingOf(chunk.choices[0]?.delta) ?? "").join("");
      expect(thinking).toBe("Base rates are low.");
      expect(contentOf(chunks)).toBe("No.");
      expect(chunks[0]?.choices[0]?.delta.role).toBe("assistant");
    },
  );
});
