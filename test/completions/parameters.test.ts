import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type CompletionsEnv, MODEL, startCompletionsEnv, upstreamModel } from "./support/env.js";
import { upstreamBody } from "./support/sibyl-types.js";
import { post } from "./support/sse.js";

let env: CompletionsEnv;
let apiKey: string;

beforeAll(async () => {
  env = await startCompletionsEnv({
    models: (url) => [upstreamModel(url, { id: "renamed", upstreamModel: "org/Real-Model-7B" })],
  });
  apiKey = (await env.org("10")).apiKey;
});
afterEach(() => env.fake.reset());
afterAll(async () => {
  await env.close();
});

const messages = [{ role: "user" as const, content: "Q" }];

/** Sends a request through Sibyl and returns the body the upstream received. */
async function forwarded(path: string, body: Record<string, unknown>) {
  const response = await post(env.server.url, path, apiKey, body);
  expect(response.status).toBe(200);
  await response.text();
  expect(env.fake.requests).toHaveLength(1);
  return upstreamBody(env.fake.requests[0]?.body);
}

describe.each([
  ["/v1/chat/completions", { model: MODEL, messages }],
  ["/v1/completions", { model: MODEL, prompt: "Q" }],
] as const)("parameters of %s", (path, base) => {
  it("sends temperature 0.6 when the request leaves it out", async () => {
    const sent = await forwarded(path, base);
    expect(sent.temperature).toBe(0.6);
    expect(sent.model).toBe(MODEL);
  });

  it("reads max_completion_tokens as max_tokens when max_tokens is absent", async () => {
    const sent = await forwarded(path, { ...base, max_completion_tokens: 55 });
    expect(sent.max_tokens).toBe(55);
  });

  it("passes every sampling parameter through", async () => {
    const sent = await forwarded(path, {
      ...base,
      temperature: 0.2,
      top_p: 0.9,
      top_k: 40,
      min_p: 0.05,
      max_tokens: 77,
      stop: ["\n\n", "END"],
      seed: 1234,
      n: 2,
      reasoning_effort: "high",
    });
    expect(sent).toMatchObject({
      temperature: 0.2,
      top_p: 0.9,
      top_k: 40,
      min_p: 0.05,
      max_tokens: 77,
      stop: ["\n\n", "END"],
      seed: 1234,
      n: 2,
      reasoning_effort: "high",
    });
  });

  it("sends temperature 0.6 for an explicit null", async () => {
    const sent = await forwarded(path, { ...base, temperature: null });
    expect(sent.temperature).toBe(0.6);
  });

  it("passes temperature 0 as 0", async () => {
    const sent = await forwarded(path, { ...base, temperature: 0 });
    expect(sent.temperature).toBe(0);
  });

  it("passes a single stop string through", async () => {
    const sent = await forwarded(path, { ...base, stop: "###" });
    expect([["###"], "###"]).toContainEqual(sent.stop);
  });

  it("leaves out what the request did not set", async () => {
    const sent = await forwarded(path, base);
    for (const key of [
      "top_p",
      "top_k",
      "min_p",
      "max_tokens",
      "stop",
      "seed",
      "reasoning_effort",
    ]) {
      expect(sent).not.toHaveProperty(key);
    }
  });

  it("asks the upstream under the configured upstream model name", async () => {
    const sent = await forwarded(path, { ...base, model: "renamed" });
    expect(sent.model).toBe("org/Real-Model-7B");
  });

  it("reports the Sibyl model id, not the upstream name", async () => {
    const response = await post(env.server.url, path, apiKey, { ...base, model: "renamed" });
    const body = (await response.json()) as { model: string };
    expect(body.model).toBe("renamed");
  });
});

describe("sampling parameters through the SDK", () => {
  it("reach the upstream from a streamed chat request", async () => {
    const stream = await env.client(apiKey).chat.completions.create({
      model: MODEL,
      messages,
      stream: true,
      temperature: 1.5,
      top_p: 0.5,
      max_tokens: 12,
      stop: "STOP",
      seed: 7,
      reasoning_effort: "low",
    });
    for await (const _ of stream) {
      // drain
    }
    expect(upstreamBody(env.fake.requests[0]?.body)).toMatchObject({
      temperature: 1.5,
      top_p: 0.5,
      max_tokens: 12,
      seed: 7,
      reasoning_effort: "low",
      stream: true,
    });
  });

  it("refuse max_tokens above the model's limit without calling it", async () => {
    const response = await post(env.server.url, "/v1/chat/completions", apiKey, {
      model: MODEL,
      messages,
      max_tokens: 100_000,
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { param: string; message: string } };
    expect(body.error.param).toBe("max_tokens");
    expect(env.fake.requests).toHaveLength(0);
  });
});
