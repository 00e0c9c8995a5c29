import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { UpstreamError } from "../../src/inference/errors.js";
import type { OpenAIProvider } from "../../src/inference/openai/index.js";
import type { StreamEvent } from "../../src/inference/provider.js";
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

function joined(events: StreamEvent[], index: number, part: "text" | "thinking"): string {
  return events
    .map((event) => (event.type === "delta" && event.index === index ? (event[part] ?? "") : ""))
    .join("");
}

/** Runs the iteration and returns what arrived before the error it ended with. */
async function consumeUntilError(
  events: AsyncIterable<StreamEvent>,
): Promise<{ received: StreamEvent[]; error: unknown }> {
  const received: StreamEvent[] = [];
  try {
    for await (const event of events) received.push(event);
  } catch (error) {
    return { received, error };
  }
  return { received, error: null };
}

describe("streamed replies", () => {
  it("maps deltas, finish and usage", async () => {
    upstream.enqueue({
      contents: ["Probability: 30%"],
      usage: { prompt_tokens: 9, completion_tokens: 5 },
    });
    const events = await collect(await provider.stream(chatRequest("Q")));
    expect(joined(events, 0, "text")).toBe("Probability: 30%");
    expect(events.filter((event) => event.type !== "delta")).toEqual([
      { type: "finish", index: 0, finishReason: "stop" },
      { type: "usage", usage: { promptTokens: 9, completionTokens: 5, reasoningTokens: 0 } },
    ]);
  });

  it.each(["reasoning_content", "reasoning"] as const)("streams %s as thinking", async (field) => {
    upstream.enqueue({ contents: ["Yes."], reasoning: { field, text: "Looking at base rates." } });
    const events = await collect(await provider.stream(chatRequest("Q")));
    expect(joined(events, 0, "thinking")).toBe("Looking at base rates.");
    expect(joined(events, 0, "text")).toBe("Yes.");
    const usage = events.find((event) => event.type === "usage");
    expect(usage?.type === "usage" && usage.usage.reasoningTokens).toBeGreaterThan(0);
  });

  it("keeps choices apart by index", async () => {
    upstream.enqueue({ contents: ["first reply", "second reply"], finishReason: "length" });
    const events = await collect(await provider.stream(chatRequest("Q", { n: 2 })));
    expect(joined(events, 0, "text")).toBe("first reply");
    expect(joined(events, 1, "text")).toBe("second reply");
    expect(events.filter((event) => event.type === "finish")).toEqual([
      { type: "finish", index: 0, finishReason: "length" },
      { type: "finish", index: 1, finishReason: "length" },
    ]);
  });

  it("sends no usage event when the server reports none", async () => {
    upstream.enqueue({ usage: null });
    const events = await collect(await provider.stream(chatRequest("Q")));
    expect(events.some((event) => event.type === "usage")).toBe(false);
  });
});

describe("stream failures", () => {
  it("retries until the server accepts the stream", async () => {
    upstream.enqueue({ status: 503 }, { dropConnection: true }, { contents: ["ok"] });
    const events = await collect(await provider.stream(chatRequest("Q")));
    expect(joined(events, 0, "text")).toBe("ok");
    expect(upstream.requests).toHaveLength(3);
  });

  it("does not retry once the stream has started", async () => {
    upstream.enqueue({ contents: ["one two three"], failAfterChunks: 2, failWith: "drop" });
    const { received, error } = await consumeUntilError(await provider.stream(chatRequest("Q")));
    expect(joined(received, 0, "text")).toBe("one ");
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).failure).toBe("unavailable");
    expect(upstream.requests).toHaveLength(1);
  });

  it("turns an error event mid-stream into 'unavailable' with its message", async () => {
    upstream.enqueue({ contents: ["one two three"], failAfterChunks: 3 });
    const { received, error } = await consumeUntilError(await provider.stream(chatRequest("Q")));
    expect(joined(received, 0, "text")).toBe("one two ");
    expect(error).toMatchObject({
      failure: "unavailable",
      message: "fake upstream failed mid-stream",
    });
    expect(upstream.requests).toHaveLength(1);
  });

  it("stops generation upstream when the caller aborts mid-stream", async () => {
    upstream.enqueue({ contents: ["word ".repeat(200)], chunkDelayMs: 5 });
    const controller = new AbortController();
    const events = await provider.stream(chatRequest("Q", {}, controller.signal));
    const received: StreamEvent[] = [];
    const error = await (async () => {
      try {
        for await (const event of events) {
          received.push(event);
          if (received.length === 3) controller.abort();
        }
      } catch (thrown) {
        return thrown;
      }
      return null;
    })();
    expect(error).toMatchObject({ name: "UpstreamError", failure: "aborted" });
    const [recorded] = upstream.requests;
    expect(await recorded?.settled).toBe("aborted");
    const sentAtAbort = recorded?.chunksSent;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(recorded?.chunksSent).toBe(sentAtAbort);
    expect(sentAtAbort).toBeLessThan(20);
  });

  it("closes the upstream when the consumer stops reading early", async () => {
    upstream.enqueue({ contents: ["word ".repeat(200)], chunkDelayMs: 5 });
    for await (const event of await provider.stream(chatRequest("Q"))) {
      if (event.type === "delta") break;
    }
    expect(await upstream.requests[0]?.settled).toBe("aborted");
  });

  it("reports 'timeout' when the stream stalls", async () => {
    // undici checks body timeouts on a ~0.5 s tick.
    const impatient = testProvider([deployment(upstream.url)], { timeouts: { bodyMs: 50 } });
    upstream.enqueue({ contents: ["one two three"], stallAfterChunks: 2 });
    const { received, error } = await consumeUntilError(await impatient.stream(chatRequest("Q")));
    expect(joined(received, 0, "text")).toBe("one ");
    expect(error).toMatchObject({ failure: "timeout" });
    expect(await upstream.requests[0]?.settled).toBe("aborted");
    await impatient.close();
  });
});

describe("wire format", () => {
  const chunk = (content: string) =>
    JSON.stringify({ choices: [{ index: 0, delta: { content }, finish_reason: null }] });

  it("parses CRLF lines, comments, multi-line data and writes split anywhere", async () => {
    const finish = JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: "stop" }] });
    const body = [
      ": keep-alive\r\n\r\n",
      `data: ${chunk("Hel")}\r\n\r\n`,
      `data: {"choices":\r\ndata: [{"index":0,"delta":{"content":"lo"},"finish_reason":null}]}\r\n\r\n`,
      `data: ${finish}\r\n\r\ndata: [DONE]\r\n\r\n`,
    ].join("");
    const pieces = [body.slice(0, 7), body.slice(7, 40), body.slice(40, 41), body.slice(41)];
    upstream.enqueue({
      raw: { contentType: "text/event-stream", chunks: pieces },
      chunkDelayMs: 2,
    });
    const events = await collect(await provider.stream(chatRequest("Q")));
    expect(joined(events, 0, "text")).toBe("Hello");
    expect(events.at(-1)).toEqual({ type: "finish", index: 0, finishReason: "stop" });
  });

  it("decodes a character split across network writes", async () => {
    const bytes = new TextEncoder().encode(`data: ${chunk("é€")}\n\ndata: [DONE]\n\n`);
    const cut = bytes.indexOf(0xe2) + 1;
    upstream.enqueue({
      raw: { contentType: "text/event-stream", chunks: [bytes.slice(0, cut), bytes.slice(cut)] },
      chunkDelayMs: 2,
    });
    const events = await collect(await provider.stream(chatRequest("Q")));
    expect(joined(events, 0, "text")).toBe("é€");
  });

  it("accepts a plain JSON reply to a stream request", async () => {
    const reply = {
      choices: [{ index: 0, message: { content: "Hi", reasoning: "Hm" }, finish_reason: "stop" }],
      usage: { prompt_tokens: 3, completion_tokens: 2 },
    };
    upstream.enqueue({
      raw: { contentType: "application/json", chunks: [JSON.stringify(reply)] },
    });
    expect(await collect(await provider.stream(chatRequest("Q")))).toEqual([
      { type: "delta", index: 0, text: "Hi", thinking: "Hm" },
      { type: "finish", index: 0, finishReason: "stop" },
      { type: "usage", usage: { promptTokens: 3, completionTokens: 2, reasoningTokens: 0 } },
    ]);
  });

  it("raises a JSON error body sent with status 200 on a stream request", async () => {
    const body = JSON.stringify({ error: { message: "engine dead" } });
    upstream.enqueue({ raw: { contentType: "application/json", chunks: [body] } });
    await expect(provider.stream(chatRequest("Q"))).rejects.toMatchObject({
      failure: "unavailable",
      message: "engine dead",
    });
  });

  it("rejects a chunk that is not JSON", async () => {
    upstream.enqueue({ raw: { contentType: "text/event-stream", chunks: ["data: {oops\n\n"] } });
    const { error } = await consumeUntilError(await provider.stream(chatRequest("Q")));
    expect(error).toMatchObject({ failure: "unavailable" });
  });
});
