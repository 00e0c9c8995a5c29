import OpenAI from "openai";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type FakeUpstream, startFakeUpstream } from "../support/fake-upstream.js";

let upstream: FakeUpstream;
let client: OpenAI;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  client = new OpenAI({ baseURL: upstream.url, apiKey: "sk-fake", maxRetries: 0 });
});
afterEach(() => upstream.reset());
afterAll(() => upstream.close());

const messages = [{ role: "user" as const, content: "Will it rain?" }];

describe("fake upstream speaks the OpenAI protocol", () => {
  it("answers chat completions with an echo and computed usage", async () => {
    const reply = await client.chat.completions.create({ model: "m", messages, n: 2 });
    expect(reply.choices.map((choice) => choice.message.content)).toEqual([
      "Echo: Will it rain?",
      "Echo: Will it rain?",
    ]);
    expect(reply.usage?.prompt_tokens).toBeGreaterThan(0);
    expect(upstream.requests[0]?.headers.authorization).toBe("Bearer sk-fake");
  });

  it("streams chunks the SDK's stream helper accepts", async () => {
    upstream.enqueue({ contents: ["a b c"], reasoning: { field: "reasoning", text: "why" } });
    const runner = client.chat.completions.stream({
      model: "m",
      messages,
      stream_options: { include_usage: true },
    });
    const final = await runner.finalChatCompletion();
    expect(final.choices[0]?.message.content).toBe("a b c");
    expect(final.usage?.completion_tokens_details?.reasoning_tokens).toBeGreaterThan(0);
  });

  it("answers text completions for prompt arrays", async () => {
    const reply = await client.completions.create({ model: "m", prompt: ["x", "y"], n: 2 });
    expect(reply.choices.map((choice) => [choice.index, choice.text])).toEqual([
      [0, "Echo: x"],
      [1, "Echo: x"],
      [2, "Echo: y"],
      [3, "Echo: y"],
    ]);
  });

  it("surfaces scripted errors and mid-stream failures through the SDK", async () => {
    upstream.enqueue({ status: 400, errorBody: { error: { message: "bad n" } } });
    await expect(client.chat.completions.create({ model: "m", messages })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining("bad n"),
    });
    upstream.enqueue({ failAfterChunks: 2 });
    const stream = await client.chat.completions.create({ model: "m", messages, stream: true });
    await expect(
      (async () => {
        for await (const _ of stream) {
          // drain
        }
      })(),
    ).rejects.toThrow("fake upstream failed mid-stream");
  });
});
