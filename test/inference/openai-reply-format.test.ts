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

const HTML_PAGE = "<!doctype html><html><body><h1>Sign in</h1></body></html>";
const htmlPage = { raw: { contentType: "text/html; charset=utf-8", chunks: [HTML_PAGE] } };

async function failureOf(promise: Promise<unknown>): Promise<UpstreamError> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof UpstreamError)) throw new Error(`expected UpstreamError, got ${error}`);
  return error;
}

/** The error a stream ends with, after the events it yielded before it. */
async function streamFailure(
  events: AsyncIterable<StreamEvent>,
): Promise<{ received: StreamEvent[]; error: UpstreamError }> {
  const received: StreamEvent[] = [];
  const error = await failureOf(
    (async () => {
      for await (const event of events) received.push(event);
    })(),
  );
  return { received, error };
}

describe("a stream request answered in another format", () => {
  it("fails as 'unavailable' on an HTML page, without retrying", async () => {
    upstream.enqueue(htmlPage);
    const error = await failureOf(provider.stream(chatRequest("Q")));
    expect([error.failure, error.upstreamStatus]).toEqual(["unavailable", 200]);
    expect(error.message).toBe("model server answered with text/html instead of an event stream");
    expect(upstream.requests).toHaveLength(1);
  });

  it("fails on an event stream labelled as plain text", async () => {
    upstream.enqueue({ contentType: "text/plain" });
    const error = await failureOf(provider.stream(chatRequest("Q")));
    expect(error.failure).toBe("unavailable");
    expect(error.message).toContain("text/plain");
  });

  it("fails on a reply without a content type", async () => {
    upstream.enqueue({ raw: { contentType: "", chunks: ["data: [DONE]\n\n"] } });
    const error = await failureOf(provider.stream(chatRequest("Q")));
    expect(error.message).toContain("no content type");
  });

  it("accepts the event-stream media type in any case and with parameters", async () => {
    upstream.enqueue({ contents: ["Fine."], contentType: "Text/Event-Stream; charset=UTF-8" });
    const events = await collect(await provider.stream(chatRequest("Q")));
    expect(events[0]).toEqual({ type: "delta", index: 0, text: "Fine." });
  });
});

describe("an event stream without completion chunks", () => {
  it.each([
    ["an HTML page", [HTML_PAGE]],
    ["nothing at all", []],
    ["only comments", [": ping\n\n", ": ping\n\n"]],
    ["only [DONE]", ["data: [DONE]\n\n"]],
  ])("fails as 'unavailable' when it carries %s", async (_, chunks) => {
    upstream.enqueue({ raw: { contentType: "text/event-stream", chunks } });
    const { received, error } = await streamFailure(await provider.stream(chatRequest("Q")));
    expect(received).toEqual([]);
    expect(error.failure).toBe("unavailable");
    expect(upstream.requests).toHaveLength(1);
  });
});

describe("a completion request answered in another format", () => {
  it("fails as 'unavailable' on an HTML page, without retrying", async () => {
    upstream.enqueue(htmlPage);
    const error = await failureOf(provider.complete(chatRequest("Q")));
    expect(error.failure).toBe("unavailable");
    expect(error.message).toBe("model server answered with text/html instead of JSON");
    expect(upstream.requests).toHaveLength(1);
  });

  it("fails on an event stream", async () => {
    upstream.enqueue({ raw: { contentType: "text/event-stream", chunks: ["data: [DONE]\n\n"] } });
    expect((await failureOf(provider.complete(chatRequest("Q")))).failure).toBe("unavailable");
  });

  it("fails as 'unavailable' on an HTML page labelled as JSON, without retrying", async () => {
    upstream.enqueue({ raw: { contentType: "application/json", chunks: [HTML_PAGE] } });
    const error = await failureOf(provider.complete(chatRequest("Q")));
    expect(error.failure).toBe("unavailable");
    expect(error.message).toBe("model server sent a malformed completion");
    expect(upstream.requests).toHaveLength(1);
  });
});

describe("fallback deployments", () => {
  it.each([
    ["a stream", (client: OpenAIProvider) => client.stream(chatRequest("hello")).then(collect)],
    ["a completion", (client: OpenAIProvider) => client.complete(chatRequest("hello"))],
  ])("serve %s at once when the first answers in another format", async (_, call) => {
    const second = await startFakeUpstream();
    upstream.setDefault(htmlPage);
    const fallback = testProvider([deployment(upstream.url), deployment(second.url, "other")]);
    await call(fallback);
    expect(upstream.requests).toHaveLength(1);
    expect(second.requests).toHaveLength(1);
    await fallback.close();
    await second.close();
  });

  it("report the last deployment's failure when every one answers in another format", async () => {
    const second = await startFakeUpstream();
    upstream.setDefault(htmlPage);
    second.setDefault({ contentType: "text/plain" });
    const fallback = testProvider([deployment(upstream.url), deployment(second.url)]);
    const error = await failureOf(fallback.stream(chatRequest("Q")));
    expect(error.message).toContain("text/plain");
    expect([upstream.requests.length, second.requests.length]).toEqual([1, 1]);
    await fallback.close();
    await second.close();
  });
});
