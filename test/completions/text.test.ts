import type OpenAI from "openai";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type CompletionsEnv, MODEL, startCompletionsEnv } from "./support/env.js";
import { costNanos, usd } from "./support/money.js";
import { sibylUsage, upstreamBody } from "./support/sibyl-types.js";
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

async function collect(stream: AsyncIterable<OpenAI.Completion>): Promise<OpenAI.Completion[]> {
  const chunks: OpenAI.Completion[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

describe.each(["/v1", "/v1/compat"] as const)("text completions at %s", (prefix) => {
  it("answers with the upstream text, its usage and its cost", async () => {
    env.fake.enqueue({
      contents: [" about 40%."],
      usage: { prompt_tokens: 12, completion_tokens: 5 },
    });
    const completion = await env.client(apiKey, prefix).completions.create({
      model: MODEL,
      prompt: "The chance of a recession next year is",
    });
    expect(completion.object).toBe("text_completion");
    expect(completion.id).toMatch(/^cmpl-/);
    expect(completion.model).toBe(MODEL);
    expect(completion.choices).toEqual([
      expect.objectContaining({ index: 0, text: " about 40%.", finish_reason: "stop" }),
    ]);
    const usage = sibylUsage(completion.usage);
    expect(usage).toMatchObject({ prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 });
    expect(usage.inference_cost_usd).toBe(usd(costNanos(12, 5)));
    expect(usage.cost_usd).toBe(usage.inference_cost_usd);
    expect(env.fake.requests[0]?.path).toBe("/v1/completions");
    expect(upstreamBody(env.fake.requests[0]?.body).prompt).toBe(
      "The chance of a recession next year is",
    );
  });

  it("numbers the choices of several prompts prompt by prompt", async () => {
    env.fake.enqueue({ contents: ["a1", "a2", "b1", "b2"] });
    const completion = await env.client(apiKey, prefix).completions.create({
      model: MODEL,
      prompt: ["first prompt", "second prompt"],
      n: 2,
    });
    expect(completion.choices.map((choice) => [choice.index, choice.text])).toEqual([
      [0, "a1"],
      [1, "a2"],
      [2, "b1"],
      [3, "b2"],
    ]);
    expect(upstreamBody(env.fake.requests[0]?.body).prompt).toEqual([
      "first prompt",
      "second prompt",
    ]);
  });

  it("streams text chunks and the usage chunk", async () => {
    env.fake.enqueue({
      contents: [" roughly one in three."],
      usage: { prompt_tokens: 8, completion_tokens: 6 },
    });
    const stream = await env.client(apiKey, prefix).completions.create({
      model: MODEL,
      prompt: "Odds:",
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = await collect(stream);
    expect(chunks.every((chunk) => chunk.object === "text_completion")).toBe(true);
    const text = chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.text)).join("");
    expect(text).toBe(" roughly one in three.");
    const finishes = chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.finish_reason));
    expect(finishes.filter((reason) => reason !== null)).toEqual(["stop"]);
    const last = chunks.at(-1);
    expect(last?.choices).toEqual([]);
    const usage = sibylUsage(last?.usage);
    expect(usage).toMatchObject({ prompt_tokens: 8, completion_tokens: 6, total_tokens: 14 });
    expect(usage.cost_usd).toBe(usd(costNanos(8, 6)));
    expect(usage.inference_cost_usd).toBe(usage.cost_usd);
  });
});

describe("the text event stream on the wire", () => {
  it("ends in [DONE] and has no usage chunk unless asked", async () => {
    env.fake.enqueue({ contents: ["done soon"] });
    const response = await post(env.server.url, "/v1/completions", apiKey, {
      model: MODEL,
      prompt: "Say",
      stream: true,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const { events, done } = parseEventStream(await response.text());
    expect(done).toBe(true);
    expect(events.length).toBeGreaterThan(1);
    expect(events.some((event) => event.usage)).toBe(false);
  });
});
