import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { ChatOpenAI } from "@langchain/openai";
import { generateText, streamText } from "ai";
import { APIError } from "openai";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type CompletionsEnv, MODEL, startCompletionsEnv } from "../completions/support/env.js";
import { costNanos, usd } from "../completions/support/money.js";
import { upstreamBody } from "../completions/support/sibyl-types.js";
import { responseUsage } from "./support/responses.js";

/**
 * The clients people use today, each against a running Sibyl, each passing an extension field
 * through its documented extra-body mechanism.
 */

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

const question = "Will it rain in Paris tomorrow?";
const reply = "Thinking it through... Probability: 64%";
const answered = `${reply}\n\n<answer>0.64</answer>`;
const usage = { prompt_tokens: 50, completion_tokens: 12 };

function enqueueForecast(): void {
  env.fake.enqueue({ contents: [reply], usage });
}

describe("the openai SDK", () => {
  it("responses.stream: text deltas, the final response and output_text", async () => {
    enqueueForecast();
    const stream = env.client(apiKey).responses.stream({
      model: MODEL,
      input: question,
      answer_type: "binary",
    });
    const deltas: string[] = [];
    const snapshots: string[] = [];
    stream.on("response.output_text.delta", (event) => {
      deltas.push(event.delta);
      snapshots.push(event.snapshot);
    });
    const response = await stream.finalResponse();
    expect(deltas.join("")).toBe(answered);
    expect(snapshots.at(-1)).toBe(answered);
    expect(response.status).toBe("completed");
    expect(response.output_text).toBe(answered);
    const cost = responseUsage(response.usage);
    expect(cost).toMatchObject({ input_tokens: 50, output_tokens: 12 });
    expect(cost.cost_usd).toBe(usd(costNanos(50, 12)));
  });

  it("responses.create with stream: true yields typed events, reasoning included", async () => {
    env.fake.enqueue({
      contents: ["Probably not."],
      reasoning: { field: "reasoning_content", text: "Weigh the votes." },
    });
    const stream = await env.client(apiKey).responses.create({
      model: MODEL,
      input: question,
      stream: true,
    });
    const seen: string[] = [];
    let summary = "";
    for await (const event of stream) {
      seen.push(event.type);
      if (event.type === "response.reasoning_summary_text.delta") summary += event.delta;
    }
    expect(summary).toBe("Weigh the votes.");
    expect(seen[0]).toBe("response.created");
    expect(seen.at(-1)).toBe("response.completed");
  });

  it("raises an error that breaks a stream as an APIError", async () => {
    env.fake.enqueue({ contents: ["It will pass narrowly, I think."], failAfterChunks: 3 });
    const stream = env.client(apiKey).responses.stream({ model: MODEL, input: question });
    const failure = await stream.finalResponse().then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(APIError);
  });
});

describe("the Vercel AI SDK's default OpenAI model (Responses API)", () => {
  /** The URLs the provider called. */
  const called: string[] = [];
  /**
   * The provider checks `providerOptions.openai` against OpenAI's own list, so Sibyl's fields go
   * in through its documented custom `fetch`.
   */
  const sibyl = () =>
    createOpenAI({
      apiKey,
      baseURL: `${env.server.url}/v1`,
      fetch: async (url, init) => {
        called.push(String(url));
        const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
        return fetch(url, { ...init, body: JSON.stringify({ ...body, answer_type: "binary" }) });
      },
    });

  it("is the model `openai(id)` gives, calling /responses", async () => {
    expect(sibyl()(MODEL).provider).toBe("openai.responses");
    await generateText({ model: sibyl()(MODEL), prompt: question });
    expect(called.at(-1)).toBe(`${env.server.url}/v1/responses`);
  });

  it("generateText", async () => {
    enqueueForecast();
    const result = await generateText({ model: sibyl()(MODEL), prompt: question });
    expect(result.text).toBe(answered);
    expect(result.usage).toMatchObject({ inputTokens: 50, outputTokens: 12 });
    expect((result.usage.raw as { cost_usd?: number } | undefined)?.cost_usd).toBe(
      usd(costNanos(50, 12)),
    );
  });

  it("streamText", async () => {
    enqueueForecast();
    const result = streamText({ model: sibyl()(MODEL), prompt: question });
    let text = "";
    for await (const delta of result.textStream) text += delta;
    expect(text).toBe(answered);
    const total = await result.totalUsage;
    expect(total).toMatchObject({ inputTokens: 50, outputTokens: 12 });
    expect(await result.finishReason).toBe("stop");
  });

  it("sends a system prompt and a conversation through", async () => {
    enqueueForecast();
    const result = await generateText({
      model: sibyl()(MODEL),
      system: "Answer briefly.",
      messages: [
        { role: "user", content: "First?" },
        { role: "assistant", content: "First answer." },
        { role: "user", content: question },
      ],
      providerOptions: { openai: { store: false } },
    });
    expect(result.text).toBe(answered);
    // After Sibyl's date line and the forecast guidance.
    const sent = upstreamBody(env.fake.requests[0]?.body).messages?.slice(2);
    expect(sent?.map((message) => message.role)).toEqual(["system", "user", "assistant", "user"]);
  });
});

describe("the Vercel AI SDK's OpenAI-compatible provider (chat completions)", () => {
  const sibyl = () =>
    createOpenAICompatible({
      name: "sibyl",
      apiKey,
      baseURL: `${env.server.url}/v1`,
      includeUsage: true,
    });

  it("generateText with the extension in providerOptions", async () => {
    enqueueForecast();
    const result = await generateText({
      model: sibyl()(MODEL),
      prompt: question,
      providerOptions: { sibyl: { answer_type: "binary" } },
    });
    expect(result.text).toBe(answered);
    expect(result.usage).toMatchObject({ inputTokens: 50, outputTokens: 12 });
    expect((result.usage.raw as { cost_usd?: number } | undefined)?.cost_usd).toBe(
      usd(costNanos(50, 12)),
    );
  });

  it("streamText with the extension in providerOptions", async () => {
    enqueueForecast();
    const result = streamText({
      model: sibyl()(MODEL),
      prompt: question,
      providerOptions: { sibyl: { answer_type: "binary" } },
    });
    let text = "";
    for await (const delta of result.textStream) text += delta;
    expect(text).toBe(answered);
    expect(await result.totalUsage).toMatchObject({ inputTokens: 50, outputTokens: 12 });
  });
});

describe.each([
  [false, "/v1/chat/completions"],
  [true, "/v1/responses"],
])("LangChain ChatOpenAI (useResponsesApi %s)", (useResponsesApi, route) => {
  /** The URLs the client called. */
  const called: string[] = [];
  const model = () =>
    new ChatOpenAI({
      model: MODEL,
      apiKey,
      configuration: {
        baseURL: `${env.server.url}/v1`,
        fetch: (url: string | URL | Request, init?: RequestInit) => {
          called.push(String(url));
          return fetch(url, init);
        },
      },
      maxRetries: 0,
      useResponsesApi,
      modelKwargs: { answer_type: "binary" },
    });

  it("invoke", async () => {
    enqueueForecast();
    const message = await model().invoke([
      ["system", "Answer briefly."],
      ["human", question],
    ]);
    expect(message.text).toBe(answered);
    expect(message.usage_metadata).toMatchObject({ input_tokens: 50, output_tokens: 12 });
    expect(called.at(-1)).toBe(`${env.server.url}${route}`);
    const sent = upstreamBody(env.fake.requests[0]?.body).messages?.slice(2);
    expect(sent).toEqual([
      { role: "system", content: "Answer briefly." },
      { role: "user", content: question },
    ]);
  });

  it("stream", async () => {
    enqueueForecast();
    let text = "";
    for await (const chunk of await model().stream(question)) text += chunk.text;
    expect(text).toBe(answered);
    expect(called.at(-1)).toBe(`${env.server.url}${route}`);
  });
});
