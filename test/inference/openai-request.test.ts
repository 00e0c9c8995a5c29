import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { OpenAIProvider } from "../../src/inference/openai/index.js";
import { type FakeUpstream, startFakeUpstream } from "../support/fake-upstream.js";
import { chatRequest, deployment, testProvider } from "./provider-fixtures.js";

let upstream: FakeUpstream;
let provider: OpenAIProvider;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  provider = testProvider([
    { baseUrl: upstream.url, apiKey: "sk-test", upstreamModel: "Qwen/Qwen3-8B" },
  ]);
});
afterEach(() => upstream.reset());
afterAll(async () => {
  await provider.close();
  await upstream.close();
});

describe("request body", () => {
  it("passes every sampling parameter through exactly as given", async () => {
    await provider.complete(
      chatRequest("Will it rain?", {
        n: 2,
        temperature: 0.7,
        top_p: 0.9,
        top_k: 40,
        min_p: 0.05,
        max_tokens: 256,
        stop: ["</answer>", "\n\n"],
        seed: 42,
        reasoning_effort: "high",
      }),
    );
    const [recorded] = upstream.requests;
    expect(recorded?.path).toBe("/v1/chat/completions");
    expect(recorded?.body).toEqual({
      model: "Qwen/Qwen3-8B",
      messages: [{ role: "user", content: "Will it rain?" }],
      n: 2,
      temperature: 0.7,
      top_p: 0.9,
      top_k: 40,
      min_p: 0.05,
      max_tokens: 256,
      stop: ["</answer>", "\n\n"],
      seed: 42,
      reasoning_effort: "high",
      stream: false,
    });
    expect(recorded?.headers.authorization).toBe("Bearer sk-test");
  });

  it("omits parameters that are null or undefined", async () => {
    await provider.complete(
      chatRequest("Q", { temperature: null, top_p: undefined, seed: null, stop: null }),
    );
    expect(upstream.requests[0]?.body).toEqual({
      model: "Qwen/Qwen3-8B",
      messages: [{ role: "user", content: "Q" }],
      n: 1,
      stream: false,
    });
  });

  it("asks for the usage chunk when streaming", async () => {
    const events = await provider.stream(chatRequest("Q"));
    for await (const _ of events) {
      // drain
    }
    expect(upstream.requests[0]?.body).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(upstream.requests[0]?.headers.accept).toBe("text/event-stream");
  });

  it("sends no authorization header without an API key", async () => {
    const keyless = testProvider([deployment(upstream.url)]);
    await keyless.complete(chatRequest("Q"));
    await keyless.close();
    expect(upstream.requests[0]?.headers.authorization).toBeUndefined();
  });
});

describe("text completions", () => {
  it("posts prompt arrays to /completions and numbers choices prompt by prompt", async () => {
    upstream.enqueue({ contents: ["a0", "a1", "b0", "b1"] });
    const result = await provider.complete({
      input: { kind: "text", prompt: ["first", "second"] },
      params: { n: 2, max_tokens: 5 },
    });
    expect(upstream.requests[0]?.path).toBe("/v1/completions");
    expect(upstream.requests[0]?.body).toEqual({
      model: "Qwen/Qwen3-8B",
      prompt: ["first", "second"],
      n: 2,
      max_tokens: 5,
      stream: false,
    });
    expect(result.choices.map((choice) => [choice.index, choice.text])).toEqual([
      [0, "a0"],
      [1, "a1"],
      [2, "b0"],
      [3, "b1"],
    ]);
  });

  it("streams text completions", async () => {
    const events = await provider.stream({
      input: { kind: "text", prompt: "Once" },
      params: { n: 1 },
    });
    let text = "";
    for await (const event of events) if (event.type === "delta") text += event.text ?? "";
    expect(text).toBe("Echo: Once");
  });
});

describe("reply mapping", () => {
  it.each(["reasoning_content", "reasoning"] as const)("reads reasoning from %s", async (field) => {
    upstream.enqueue({ contents: ["Probability: 40%"], reasoning: { field, text: "Base rates." } });
    const result = await provider.complete(chatRequest("Q"));
    expect(result.choices[0]).toEqual({
      index: 0,
      text: "Probability: 40%",
      thinking: "Base rates.",
      finishReason: "stop",
    });
  });

  it("maps usage including reasoning tokens", async () => {
    upstream.enqueue({ usage: { prompt_tokens: 11, completion_tokens: 7, reasoning_tokens: 3 } });
    const result = await provider.complete(chatRequest("Q"));
    expect(result.usage).toEqual({ promptTokens: 11, completionTokens: 7, reasoningTokens: 3 });
  });

  it("reports null usage when the server sends none", async () => {
    upstream.enqueue({ usage: null });
    const result = await provider.complete(chatRequest("Q"));
    expect(result.usage).toBeNull();
    expect(result.choices[0]?.thinking).toBeNull();
  });

  it("keeps the finish reason and every choice", async () => {
    upstream.enqueue({ contents: ["one", "two"], finishReason: "length" });
    const result = await provider.complete(chatRequest("Q", { n: 2 }));
    expect(result.choices.map((choice) => [choice.text, choice.finishReason])).toEqual([
      ["one", "length"],
      ["two", "length"],
    ]);
  });

  it("treats a reply that is not JSON as unavailable, without retrying", async () => {
    upstream.enqueue({ raw: { contentType: "application/json", chunks: ['{"choices": ['] } });
    await expect(provider.complete(chatRequest("Q"))).rejects.toMatchObject({
      name: "UpstreamError",
      failure: "unavailable",
    });
    expect(upstream.requests).toHaveLength(1);
  });

  it("keeps the base URL's path and query", async () => {
    const gateway = testProvider([deployment(`${upstream.url}/../v1/?api-version=1`)]);
    await gateway.complete(chatRequest("Q"));
    await gateway.close();
    expect(upstream.requests[0]?.path).toBe("/v1/chat/completions?api-version=1");
  });
});
