import { createServer } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { UpstreamError } from "../../src/inference/errors.js";
import type { OpenAIProvider } from "../../src/inference/openai/index.js";
import { type FakeUpstream, startFakeUpstream } from "../support/fake-upstream.js";
import { until } from "../support/polling.js";
import { chatRequest, deployment, testProvider } from "./provider-fixtures.js";

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

/** A loopback URL where nothing listens, so connecting is refused. */
async function refusedUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== "object" || address === null) throw new Error("no port");
  return `http://127.0.0.1:${address.port}/v1`;
}

async function failureOf(promise: Promise<unknown>): Promise<UpstreamError> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof UpstreamError)) throw new Error(`expected UpstreamError, got ${error}`);
  return error;
}

describe("retries", () => {
  it.each([
    ["a 503", { status: 503 }],
    ["a 429 with retry-after", { status: 429, headers: { "retry-after": "0" } }],
    ["a dropped connection", { dropConnection: true }],
  ])("retries after %s and succeeds", async (_, failure) => {
    upstream.enqueue(failure, { contents: ["fine"] });
    const result = await provider.complete(chatRequest("Q"));
    expect(result.choices[0]?.text).toBe("fine");
    expect(upstream.requests).toHaveLength(2);
  });

  it("caps retry-after at the maximum delay", async () => {
    upstream.enqueue({ status: 429, headers: { "retry-after": "3600" } });
    const started = Date.now();
    await provider.complete(chatRequest("Q"));
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("gives up after the configured attempts with the last failure", async () => {
    upstream.setDefault({ status: 502, errorBody: { error: { message: "bad gateway" } } });
    const error = await failureOf(provider.complete(chatRequest("Q")));
    expect(error.failure).toBe("unavailable");
    expect(error.upstreamStatus).toBe(502);
    expect(error.message).toContain("bad gateway");
    expect(upstream.requests).toHaveLength(3);
  });

  it("ends with 'rejected' and status 429 when the server stays rate limited", async () => {
    upstream.setDefault({ status: 429, errorBody: { error: { message: "slow down" } } });
    const error = await failureOf(provider.complete(chatRequest("Q")));
    expect([error.failure, error.upstreamStatus, error.message]).toEqual([
      "rejected",
      429,
      "slow down",
    ]);
  });

  it("stops waiting to retry when the caller aborts", async () => {
    const slow = testProvider([deployment(upstream.url)], {
      retry: { baseDelayMs: 5_000, maxDelayMs: 5_000 },
    });
    upstream.setDefault({ status: 503 });
    const controller = new AbortController();
    const pending = failureOf(slow.complete(chatRequest("Q", {}, controller.signal)));
    // Abort once the first attempt has been answered, so the abort lands in the retry wait.
    await until(() => upstream.requests.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 30));
    controller.abort();
    expect((await pending).failure).toBe("aborted");
    expect(upstream.requests).toHaveLength(1);
    await slow.close();
  });
});

describe("client errors", () => {
  it("does not retry a 400 and passes the upstream message through", async () => {
    upstream.enqueue({
      status: 400,
      errorBody: { error: { message: "max_tokens is too large", type: "BadRequestError" } },
    });
    const error = await failureOf(provider.complete(chatRequest("Q")));
    expect([error.failure, error.upstreamStatus, error.message]).toEqual([
      "rejected",
      400,
      "max_tokens is too large",
    ]);
    expect(upstream.requests).toHaveLength(1);
  });

  it.each([
    ["FastAPI detail", { detail: "Not authenticated" }, "Not authenticated"],
    ["older vLLM shape", { object: "error", message: "model not found" }, "model not found"],
    ["plain text", "Unauthorized", "Unauthorized"],
  ])("reads the message from a %s body", async (_, errorBody, message) => {
    upstream.enqueue({ status: 401, errorBody });
    const error = await failureOf(provider.complete(chatRequest("Q")));
    expect(error.message).toBe(message);
  });
});

describe("fallback deployments", () => {
  it("moves to the next deployment when the first is down", async () => {
    const fallback = testProvider([deployment(await refusedUrl()), deployment(upstream.url)]);
    const result = await fallback.complete(chatRequest("hello"));
    expect(result.choices[0]?.text).toBe("Echo: hello");
    expect(upstream.requests).toHaveLength(1);
    await fallback.close();
  });

  it("moves on once the first deployment's attempts are spent on 5xx", async () => {
    const second = await startFakeUpstream();
    upstream.setDefault({ status: 500 });
    const fallback = testProvider([deployment(upstream.url), deployment(second.url, "other")]);
    await fallback.complete(chatRequest("Q"));
    expect(upstream.requests).toHaveLength(3);
    expect(second.requests[0]?.body).toMatchObject({ model: "other" });
    await fallback.close();
    await second.close();
  });

  it("does not fall back on a 4xx", async () => {
    const second = await startFakeUpstream();
    upstream.enqueue({ status: 404 });
    const fallback = testProvider([deployment(upstream.url), deployment(second.url)]);
    expect((await failureOf(fallback.complete(chatRequest("Q")))).failure).toBe("rejected");
    expect(second.requests).toHaveLength(0);
    await fallback.close();
    await second.close();
  });

  it("reports 'unavailable' when every deployment is down", async () => {
    const down = testProvider([deployment(await refusedUrl()), deployment(await refusedUrl())]);
    const error = await failureOf(down.complete(chatRequest("Q")));
    expect(error.failure).toBe("unavailable");
    expect(error.message).toContain("ECONNREFUSED");
    await down.close();
  });
});

/** A whole non-streamed completion, as a model server sends it. */
const REPLY = JSON.stringify({
  id: "chatcmpl-1",
  object: "chat.completion",
  created: 1,
  model: "upstream/model",
  choices: [{ index: 0, message: { role: "assistant", content: "whole" }, finish_reason: "stop" }],
  usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
});

/** The text in four parts, sent as separate writes. */
function partsOf(text: string): string[] {
  const size = Math.ceil(text.length / 4);
  return [0, 1, 2, 3].map((part) => text.slice(part * size, (part + 1) * size));
}

describe("replies that arrive in parts", () => {
  it("reads a completion whose body comes in several writes, a character split between two", async () => {
    const text = REPLY.replace('"whole"', '"Größe über €"');
    const bytes = Buffer.from(text);
    const split = bytes.indexOf(Buffer.from("€")) + 1;
    upstream.enqueue({
      raw: {
        contentType: "application/json",
        chunks: [bytes.subarray(0, split), bytes.subarray(split)],
      },
      chunkDelayMs: 20,
    });
    const result = await provider.complete(chatRequest("Q"));
    expect(result.choices[0]?.text).toBe("Größe über €");
    expect(result.usage).toMatchObject({ promptTokens: 3, completionTokens: 1 });
  });

  it("fails without retrying when the connection drops after the headers: the model already ran", async () => {
    upstream.enqueue({
      raw: { contentType: "application/json", chunks: partsOf(REPLY) },
      failAfterChunks: 2,
    });
    const error = await failureOf(provider.complete(chatRequest("Q")));
    expect(error.failure).toBe("unavailable");
    expect(error.message).toMatch(/connection to the model server failed/);
    expect(upstream.requests).toHaveLength(1);
  });
});

describe("timeouts and cancellation", () => {
  it("reports 'timeout' when headers do not arrive in time, without retrying", async () => {
    // undici checks header and body timeouts on a ~0.5 s tick, so the server must be slower than that.
    const impatient = testProvider([deployment(upstream.url)], { timeouts: { headersMs: 50 } });
    upstream.enqueue({ headersDelayMs: 1_500 });
    const error = await failureOf(impatient.complete(chatRequest("Q")));
    expect(error.failure).toBe("timeout");
    expect(upstream.requests).toHaveLength(1);
    expect(await upstream.requests[0]?.settled).toBe("aborted");
    await impatient.close();
  });

  it("reports 'aborted' when the caller cancels while waiting for the reply", async () => {
    upstream.enqueue({ headersDelayMs: 300 });
    const controller = new AbortController();
    const pending = failureOf(provider.complete(chatRequest("Q", {}, controller.signal)));
    await new Promise((resolve) => setTimeout(resolve, 30));
    controller.abort();
    expect((await pending).failure).toBe("aborted");
    expect(await upstream.requests[0]?.settled).toBe("aborted");
  });

  it("reports 'aborted' when the caller cancels while the reply's body arrives", async () => {
    upstream.enqueue({
      raw: { contentType: "application/json", chunks: partsOf(REPLY) },
      chunkDelayMs: 100,
    });
    const controller = new AbortController();
    const pending = failureOf(provider.complete(chatRequest("Q", {}, controller.signal)));
    await new Promise((resolve) => setTimeout(resolve, 150));
    controller.abort();
    expect((await pending).failure).toBe("aborted");
    expect(await upstream.requests[0]?.settled).toBe("aborted");
    expect(upstream.requests).toHaveLength(1);
  });

  it("reports 'timeout' when the body stops coming, without retrying", async () => {
    const impatient = testProvider([deployment(upstream.url)], { timeouts: { bodyMs: 50 } });
    upstream.enqueue({
      raw: { contentType: "application/json", chunks: partsOf(REPLY) },
      chunkDelayMs: 1_500,
    });
    const error = await failureOf(impatient.complete(chatRequest("Q")));
    expect(error.failure).toBe("timeout");
    expect(error.message).toMatch(/stopped sending/);
    expect(upstream.requests).toHaveLength(1);
    await impatient.close();
  });

  it("does not call the server for an already cancelled request", async () => {
    const error = await failureOf(provider.complete(chatRequest("Q", {}, AbortSignal.abort())));
    expect(error.failure).toBe("aborted");
    expect(upstream.requests).toHaveLength(0);
  });
});
