import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { OpenAIProvider } from "../../src/inference/openai/index.js";
import type { ProviderUsage, StreamEvent } from "../../src/inference/provider.js";
import { type FakeUpstream, startFakeUpstream } from "../support/fake-upstream.js";
import { chatRequest, collect, deployment, testProvider } from "./provider-fixtures.js";

let upstream: FakeUpstream;
let provider: OpenAIProvider;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  provider = testProvider([deployment(upstream.url)]);
});
afterEach(() => upstream.reset());
afterAll(async () => {
  await provider.close();
  await upstream.close();
});

/** Usage objects no model server should send; each must be passed on as no usage at all. */
const NONSENSE: [string, unknown][] = [
  ["a negative prompt count", { prompt_tokens: -5, completion_tokens: 3 }],
  ["a negative completion count", { prompt_tokens: 5, completion_tokens: -3 }],
  ["a fractional completion count", { prompt_tokens: 5, completion_tokens: 2.5 }],
  ["an absurdly large completion count", { prompt_tokens: 5, completion_tokens: 1e15 }],
  ["a count beyond the safe integers", { prompt_tokens: 2 ** 60, completion_tokens: 3 }],
  ["a NaN string", { prompt_tokens: "NaN", completion_tokens: 3 }],
  ["a numeric string", { prompt_tokens: 5, completion_tokens: "3" }],
  ["a missing prompt count", { completion_tokens: 3 }],
  [
    "more reasoning than completion tokens",
    { prompt_tokens: 5, completion_tokens: 3, completion_tokens_details: { reasoning_tokens: 7 } },
  ],
  [
    "a negative reasoning count",
    { prompt_tokens: 5, completion_tokens: 3, completion_tokens_details: { reasoning_tokens: -1 } },
  ],
  [
    "a NaN reasoning count",
    {
      prompt_tokens: 5,
      completion_tokens: 3,
      completion_tokens_details: { reasoning_tokens: "NaN" },
    },
  ],
  [
    "details that are not an object",
    { prompt_tokens: 5, completion_tokens: 3, completion_tokens_details: "many" },
  ],
  ["a total that is not the sum", { prompt_tokens: 5, completion_tokens: 3, total_tokens: 80 }],
];

/** Usage objects real servers send; each must be read as reported. */
const SENSIBLE: [string, unknown, ProviderUsage][] = [
  [
    "counts with their total and reasoning",
    {
      prompt_tokens: 5,
      completion_tokens: 3,
      total_tokens: 8,
      completion_tokens_details: { reasoning_tokens: 3 },
    },
    { promptTokens: 5, completionTokens: 3, reasoningTokens: 3 },
  ],
  [
    "null details and total",
    { prompt_tokens: 5, completion_tokens: 3, total_tokens: null, completion_tokens_details: null },
    { promptTokens: 5, completionTokens: 3, reasoningTokens: 0 },
  ],
  [
    "zero counts",
    {
      prompt_tokens: 0,
      completion_tokens: 0,
      completion_tokens_details: { reasoning_tokens: null },
    },
    { promptTokens: 0, completionTokens: 0, reasoningTokens: 0 },
  ],
];

/** One SSE chunk carrying a word of content and the given usage. */
function chunk(usage: unknown): string {
  return `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: "a" } }], usage })}\n\n`;
}

function usageEvents(events: StreamEvent[]): StreamEvent[] {
  return events.filter((event) => event.type === "usage");
}

describe("usage of a JSON reply", () => {
  it.each(NONSENSE)("is reported as none for %s", async (_, rawUsage) => {
    upstream.enqueue({ contents: ["Fine."], rawUsage });
    const result = await provider.complete(chatRequest("Q"));
    expect(result.usage).toBeNull();
    expect(result.choices[0]?.text).toBe("Fine.");
  });

  it.each(SENSIBLE)("is read for %s", async (_, rawUsage, expected) => {
    upstream.enqueue({ rawUsage });
    expect((await provider.complete(chatRequest("Q"))).usage).toEqual(expected);
  });
});

describe("usage of a streamed reply", () => {
  it.each(NONSENSE)("is reported as none for %s", async (_, rawUsage) => {
    upstream.enqueue({ contents: ["Fine."], rawUsage });
    const events = await collect(await provider.stream(chatRequest("Q")));
    expect(usageEvents(events)).toEqual([]);
    expect(events).toContainEqual({ type: "finish", index: 0, finishReason: "stop" });
  });

  it.each(SENSIBLE)("is read for %s", async (_, rawUsage, expected) => {
    upstream.enqueue({ rawUsage });
    const events = await collect(await provider.stream(chatRequest("Q")));
    expect(usageEvents(events)).toEqual([{ type: "usage", usage: expected }]);
  });

  it("is reported as none when nonsense follows a sensible running total", async () => {
    upstream.enqueue({
      raw: {
        contentType: "text/event-stream",
        chunks: [
          chunk({ prompt_tokens: 5, completion_tokens: 1 }),
          chunk({ prompt_tokens: 5, completion_tokens: -1 }),
          "data: [DONE]\n\n",
        ],
      },
    });
    const events = await collect(await provider.stream(chatRequest("Q")));
    expect(usageEvents(events)).toEqual([]);
  });

  it("keeps the last running total when every report makes sense", async () => {
    upstream.enqueue({
      raw: {
        contentType: "text/event-stream",
        chunks: [
          chunk({ prompt_tokens: 5, completion_tokens: 1 }),
          chunk(null),
          chunk({ prompt_tokens: 5, completion_tokens: 2 }),
          "data: [DONE]\n\n",
        ],
      },
    });
    const events = await collect(await provider.stream(chatRequest("Q")));
    expect(usageEvents(events)).toEqual([
      { type: "usage", usage: { promptTokens: 5, completionTokens: 2, reasoningTokens: 0 } },
    ]);
  });
});
