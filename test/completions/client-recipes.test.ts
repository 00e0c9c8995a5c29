import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { ChatOpenAI } from "@langchain/openai";
import { generateText, streamText } from "ai";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type CompletionsEnv, MODEL, startCompletionsEnv } from "./support/env.js";

/** The recipes of docs/clients.md, each run with its real client against a running Sibyl. */

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

const question = "Will the city council approve the budget by June?";
const SIBYL_OPTIONS = {
  answer_type: "binary",
  prediction_date: "2025-03-01",
  research: { sources: ["news_search"] },
  ensemble: { samples: 3, aggregate: "median" },
};

function answerEveryCall(): void {
  env.fake.setDefault({ contents: ["Probability: 40%"] });
}

describe("streaming cost with the openai SDK", () => {
  it("comes in a last usage chunk only with stream_options.include_usage", async () => {
    answerEveryCall();
    const client = env.client(apiKey);
    const usageOf = async (includeUsage: boolean) => {
      const stream = await client.chat.completions.create({
        model: MODEL,
        messages: [{ role: "user", content: question }],
        stream: true,
        ...(includeUsage ? { stream_options: { include_usage: true } } : {}),
      });
      let usage: unknown = null;
      for await (const chunk of stream) if (chunk.usage) usage = chunk.usage;
      return usage as { cost_usd?: number } | null;
    };
    expect(await usageOf(false)).toBeNull();
    expect((await usageOf(true))?.cost_usd).toBeGreaterThan(0);
  });
});

describe("the AI SDK's createOpenAICompatible", () => {
  const sibyl = () =>
    createOpenAICompatible({
      name: "sibyl",
      apiKey,
      baseURL: `${env.server.url}/v1`,
      includeUsage: true,
    });

  it("passes Sibyl's fields in providerOptions.sibyl: research, cutoff and an ensemble", async () => {
    answerEveryCall();
    const result = await generateText({
      model: sibyl()(MODEL),
      prompt: question,
      providerOptions: { sibyl: SIBYL_OPTIONS },
    });
    expect(result.text).toMatch(/<answer>0\.4<\/answer>$/);
    expect(env.fake.requests).toHaveLength(3);
    const body = result.response.body as { ensemble?: { samples_requested: number } };
    expect(body.ensemble?.samples_requested).toBe(3);
    expect((result.usage.raw as { research_cost_usd?: number }).research_cost_usd).toBe(0);
  });

  it("reports a stream's cost with includeUsage", async () => {
    answerEveryCall();
    const result = streamText({
      model: sibyl()(MODEL),
      prompt: question,
      providerOptions: { sibyl: { answer_type: "binary" } },
    });
    let text = "";
    for await (const delta of result.textStream) text += delta;
    expect(text).toMatch(/<answer>0\.4<\/answer>$/);
    const usage = await result.totalUsage;
    expect(usage.inputTokens).toBeGreaterThan(0);
  });
});

describe("the AI SDK's openai(model)", () => {
  it("cannot pass Sibyl's fields in providerOptions.openai: they never reach Sibyl", async () => {
    answerEveryCall();
    const sent: Record<string, unknown>[] = [];
    const openai = createOpenAI({
      apiKey,
      baseURL: `${env.server.url}/v1`,
      fetch: async (url, init) => {
        sent.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
        return fetch(url, init);
      },
    });
    const result = await generateText({
      model: openai(MODEL),
      prompt: question,
      providerOptions: { openai: { answer_type: "binary" } },
    });
    expect(sent[0]).not.toHaveProperty("answer_type");
    expect(result.text).not.toContain("<answer>");
  });
});

describe("LangChain's ChatOpenAI", () => {
  it("passes Sibyl's fields in modelKwargs", async () => {
    answerEveryCall();
    const model = new ChatOpenAI({
      model: MODEL,
      apiKey,
      configuration: { baseURL: `${env.server.url}/v1` },
      modelKwargs: SIBYL_OPTIONS,
    });
    const message = await model.invoke(question);
    expect(message.text).toMatch(/<answer>0\.4<\/answer>$/);
    expect(env.fake.requests).toHaveLength(3);
    expect(message.usage_metadata?.input_tokens).toBeGreaterThan(0);
  });
});
