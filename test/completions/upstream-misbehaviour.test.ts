import type OpenAI from "openai";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ChatMessage } from "../../src/inference/provider.js";
import { countChatTokens, countTextTokens } from "../../src/inference/tokens.js";
import type { TestOrg } from "../support/server.js";
import { type CompletionsEnv, MODEL, startCompletionsEnv } from "./support/env.js";
import { rejection } from "./support/errors.js";
import { balanceNanos, charges, costNanos, usd } from "./support/money.js";
import { sibylUsage, upstreamBody } from "./support/sibyl-types.js";
import { parseEventStream, post } from "./support/sse.js";

let env: CompletionsEnv;

beforeAll(async () => {
  env = await startCompletionsEnv({ modelOptions: { retryAttempts: 2 } });
});
afterEach(() => env.fake.reset());
afterAll(async () => {
  await env.close();
});

const REPLY = "The strike ends on Friday.";
const chat = {
  model: MODEL,
  messages: [{ role: "user" as const, content: "Will the strike end this week?" }],
};

/** Usage counts no model server should report; Sibyl must bill its own count instead. */
const NONSENSE_USAGE: [string, unknown][] = [
  ["negative", { prompt_tokens: -400, completion_tokens: 7 }],
  ["fractional", { prompt_tokens: 12, completion_tokens: 6.5 }],
  ["absurdly large", { prompt_tokens: 12, completion_tokens: 1e15 }],
  ["beyond the safe integers", { prompt_tokens: 2 ** 60, completion_tokens: 7 }],
  ["NaN strings", { prompt_tokens: "NaN", completion_tokens: "NaN" }],
  [
    "inconsistent",
    {
      prompt_tokens: 12,
      completion_tokens: 7,
      completion_tokens_details: { reasoning_tokens: 90 },
    },
  ],
];

/** Sibyl's own count: the prompt it sent upstream and the reply it got back. */
function ownCount(): { prompt: number; completion: number } {
  const sent = upstreamBody(env.fake.requests[0]?.body).messages ?? [];
  const messages = sent.map((m) => ({ role: m.role as ChatMessage["role"], content: m.content }));
  return { prompt: countChatTokens(messages), completion: countTextTokens(REPLY) };
}

/** The usage reported to the client is Sibyl's own count, and exactly its cost was debited. */
async function expectBilledOwnCount(org: TestOrg, reported: OpenAI.CompletionUsage | undefined) {
  const own = ownCount();
  const usage = sibylUsage(reported);
  expect(usage).toMatchObject({
    prompt_tokens: own.prompt,
    completion_tokens: own.completion,
    total_tokens: own.prompt + own.completion,
    completion_tokens_details: { reasoning_tokens: 0 },
  });
  const cost = costNanos(own.prompt, own.completion);
  expect(usage.cost_usd).toBe(usd(cost));
  expect(await balanceNanos(env.server.url, org.apiKey)).toBe(1e9 - cost);
  const entries = await charges(env.server.services, org.organizationId);
  expect(entries.map((entry) => entry.amount_nanos)).toEqual([-cost]);
}

async function expectUncharged(org: TestOrg): Promise<void> {
  expect(await balanceNanos(env.server.url, org.apiKey)).toBe(1e9);
  expect(await charges(env.server.services, org.organizationId)).toEqual([]);
}

describe.each(NONSENSE_USAGE)("upstream usage that is %s", (_, rawUsage) => {
  it("answers a completion with Sibyl's own count and debits its cost", async () => {
    const org = await env.org("1");
    env.fake.enqueue({ contents: [REPLY], rawUsage });
    const completion = await env.client(org.apiKey).chat.completions.create(chat);
    expect(completion.choices[0]?.message.content).toBe(REPLY);
    await expectBilledOwnCount(org, completion.usage);
  });

  it("ends a stream with Sibyl's own count and debits its cost", async () => {
    const org = await env.org("1");
    env.fake.enqueue({ contents: [REPLY], rawUsage });
    const stream = await env.client(org.apiKey).chat.completions.create({
      ...chat,
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks: OpenAI.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    const content = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? "").join("");
    expect(content).toBe(REPLY);
    await expectBilledOwnCount(org, chunks.at(-1)?.usage ?? undefined);
  });
});

const HTML_PAGE = "<!doctype html><html><body><h1>502 Bad Gateway</h1></body></html>";

describe("an upstream reply in the wrong format", () => {
  it("answers 502 to a completion answered with an HTML page, and charges nothing", async () => {
    const org = await env.org("1");
    env.fake.setDefault({ raw: { contentType: "text/html", chunks: [HTML_PAGE] } });
    const error = await rejection(env.client(org.apiKey).chat.completions.create(chat));
    expect(error.status).toBe(502);
    expect(env.fake.requests).toHaveLength(1);
    await expectUncharged(org);
  });

  it("answers 502 to a stream answered with an HTML page, and charges nothing", async () => {
    const org = await env.org("1");
    env.fake.setDefault({ raw: { contentType: "text/html", chunks: [HTML_PAGE] } });
    const response = await post(env.server.url, "/v1/chat/completions", org.apiKey, {
      ...chat,
      stream: true,
    });
    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({
      error: { message: expect.stringMatching(/text\/html/) },
    });
    expect(env.fake.requests).toHaveLength(1);
    await expectUncharged(org);
  });

  it.each([
    ["an HTML page", [HTML_PAGE]],
    ["only [DONE]", ["data: [DONE]\n\n"]],
    ["nothing", []],
  ])(
    "ends an event stream carrying %s with an error event, and charges nothing",
    async (_, chunks) => {
      const org = await env.org("1");
      env.fake.enqueue({ raw: { contentType: "text/event-stream", chunks } });
      const response = await post(env.server.url, "/v1/chat/completions", org.apiKey, {
        ...chat,
        stream: true,
        stream_options: { include_usage: true },
      });
      expect(response.status).toBe(200);
      const { events, done } = parseEventStream(await response.text());
      expect(done).toBe(true);
      expect(events).toEqual([
        {
          error: expect.objectContaining({
            message: expect.stringMatching(/without completion chunks/),
          }),
        },
      ]);
      expect(env.fake.requests).toHaveLength(1);
      await expectUncharged(org);
    },
  );
});
