import { APIError } from "openai";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { TestOrg } from "../support/server.js";
import { type CompletionsEnv, MODEL, startCompletionsEnv } from "./support/env.js";
import { rejection } from "./support/errors.js";
import { balanceNanos, charges } from "./support/money.js";
import { parseEventStream, post } from "./support/sse.js";

let env: CompletionsEnv;

beforeAll(async () => {
  env = await startCompletionsEnv({
    modelOptions: { headersMs: 300, bodyMs: 300, retryAttempts: 2 },
  });
});
afterEach(() => env.fake.reset());
afterAll(async () => {
  await env.close();
});

const chat = {
  model: MODEL,
  messages: [{ role: "user" as const, content: "Will the strike end this week?" }],
};

async function expectUncharged(org: TestOrg): Promise<void> {
  expect(await balanceNanos(env.server.url, org.apiKey)).toBe(1e9);
  expect(await charges(env.server.services, org.organizationId)).toEqual([]);
}

describe("failures before the reply", () => {
  it("answers 502 after the retries when the upstream keeps failing, and charges nothing", async () => {
    const org = await env.org("1");
    env.fake.setDefault({ status: 500, errorBody: { error: { message: "engine crashed" } } });
    const error = await rejection(env.client(org.apiKey).chat.completions.create(chat));
    expect(error.status).toBe(502);
    expect(error.message).toMatch(/engine crashed/);
    expect(env.fake.requests).toHaveLength(2);
    await expectUncharged(org);
  });

  it("passes an upstream 400 through with its status and message, and charges nothing", async () => {
    const org = await env.org("1");
    env.fake.enqueue({
      status: 400,
      errorBody: { error: { message: "This model's maximum context length is 4096 tokens." } },
    });
    const error = await rejection(env.client(org.apiKey).chat.completions.create(chat));
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/maximum context length is 4096 tokens/);
    expect(env.fake.requests).toHaveLength(1);
    await expectUncharged(org);
  });

  it("answers 504 when the upstream sends no headers in time, and charges nothing", async () => {
    const org = await env.org("1");
    env.fake.enqueue({ headersDelayMs: 1_000 });
    const error = await rejection(env.client(org.apiKey).chat.completions.create(chat));
    expect(error.status).toBe(504);
    expect(env.fake.requests).toHaveLength(1);
    await expectUncharged(org);
  });

  it("answers 502 for a stream whose upstream fails before any byte, and charges nothing", async () => {
    const org = await env.org("1");
    env.fake.setDefault({ status: 503 });
    const error = await rejection(
      env.client(org.apiKey).chat.completions.create({ ...chat, stream: true }),
    );
    expect(error.status).toBe(502);
    expect(env.fake.requests).toHaveLength(2);
    await expectUncharged(org);
  });

  it("fails text completions the same way", async () => {
    const org = await env.org("1");
    env.fake.setDefault({ status: 500 });
    const error = await rejection(
      env.client(org.apiKey).completions.create({ model: MODEL, prompt: "Q" }),
    );
    expect(error.status).toBe(502);
    await expectUncharged(org);
  });
});

describe("upstream answers that say nothing about the caller's request", () => {
  it.each([
    [401, "Incorrect API key provided."],
    [403, "Project does not have access to this model."],
    [404, "The model `org/model` does not exist."],
  ])(
    "reports an upstream %i as a 502: the caller's key and request were fine",
    async (status, message) => {
      const org = await env.org("1");
      env.fake.setDefault({ status, errorBody: { error: { message } } });
      const error = await rejection(env.client(org.apiKey).chat.completions.create(chat));
      expect(error.status).toBe(502);
      await expectUncharged(org);
    },
  );

  it("answers 502 for a reply that is not JSON, and charges nothing", async () => {
    const org = await env.org("1");
    env.fake.enqueue({ raw: { contentType: "application/json", chunks: ["<html>oops</html>"] } });
    const error = await rejection(env.client(org.apiKey).chat.completions.create(chat));
    expect(error.status).toBe(502);
    await expectUncharged(org);
  });

  it("streams a whole JSON reply sent to a streaming request", async () => {
    const org = await env.org("1");
    const whole = {
      id: "chatcmpl-x",
      object: "chat.completion",
      created: 1,
      model: MODEL,
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: "All at once." },
          finish_reason: "stop",
        },
      ],
      usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 },
    };
    env.fake.enqueue({ raw: { contentType: "application/json", chunks: [JSON.stringify(whole)] } });
    const completion = await env
      .client(org.apiKey)
      .chat.completions.stream({ ...chat, stream_options: { include_usage: true } })
      .finalChatCompletion();
    expect(completion.choices[0]?.message.content).toBe("All at once.");
    expect(completion.usage?.completion_tokens).toBe(4);
  });
});

describe("retries", () => {
  it("retries a 503 and answers once with the success", async () => {
    const org = await env.org("1");
    env.fake.enqueue({ status: 503 }, { contents: ["Recovered."] });
    const completion = await env.client(org.apiKey).chat.completions.create(chat);
    expect(completion.choices[0]?.message.content).toBe("Recovered.");
    expect(env.fake.requests).toHaveLength(2);
    expect(await charges(env.server.services, org.organizationId)).toHaveLength(1);
  });

  it("retries a stream that failed before its first byte", async () => {
    const org = await env.org("1");
    env.fake.enqueue({ status: 503 }, { contents: ["Streamed after all."] });
    const completion = await env
      .client(org.apiKey)
      .chat.completions.stream(chat)
      .finalChatCompletion();
    expect(completion.choices[0]?.message.content).toBe("Streamed after all.");
    expect(env.fake.requests).toHaveLength(2);
  });
});

describe.each(["error-event", "drop"] as const)("a stream failing part-way (%s)", (failWith) => {
  const failing = {
    contents: ["one two three four five six"],
    failAfterChunks: 3,
    failWith,
  };

  it("ends with an error event and [DONE], is not retried and charges nothing", async () => {
    const org = await env.org("1");
    env.fake.enqueue(failing);
    const response = await post(env.server.url, "/v1/chat/completions", org.apiKey, {
      ...chat,
      stream: true,
    });
    expect(response.status).toBe(200);
    const { events, done } = parseEventStream(await response.text());
    expect(done).toBe(true);
    const last = events.at(-1);
    expect(last).toEqual({
      error: expect.objectContaining({ message: expect.any(String), type: expect.any(String) }),
    });
    expect(events.slice(0, -1).every((event) => event.object === "chat.completion.chunk")).toBe(
      true,
    );
    expect(events.length).toBeGreaterThan(1);
    expect(env.fake.requests).toHaveLength(1);
    await expectUncharged(org);
  });

  it("makes the SDK throw", async () => {
    const org = await env.org("1");
    env.fake.enqueue(failing);
    const stream = await env.client(org.apiKey).chat.completions.create({ ...chat, stream: true });
    const received: string[] = [];
    const failure = await (async () => {
      try {
        for await (const chunk of stream) received.push(chunk.choices[0]?.delta.content ?? "");
      } catch (error) {
        return error;
      }
      return null;
    })();
    expect(failure).toBeInstanceOf(APIError);
    expect(received.join("")).toBe("one two ");
    expect(env.fake.requests).toHaveLength(1);
  });

  it("ends a text stream the same way", async () => {
    const org = await env.org("1");
    env.fake.enqueue(failing);
    const response = await post(env.server.url, "/v1/completions", org.apiKey, {
      model: MODEL,
      prompt: "Count:",
      stream: true,
    });
    const { events, done } = parseEventStream(await response.text());
    expect(done).toBe(true);
    expect(events.at(-1)).toHaveProperty("error");
    expect(env.fake.requests).toHaveLength(1);
    await expectUncharged(org);
  });
});

describe("a stream whose upstream stalls", () => {
  it("ends with a timeout error event and [DONE], and charges nothing", async () => {
    const org = await env.org("1");
    env.fake.enqueue({ contents: ["one two three four"], stallAfterChunks: 2 });
    const response = await post(env.server.url, "/v1/chat/completions", org.apiKey, {
      ...chat,
      stream: true,
    });
    const { events, done } = parseEventStream(await response.text());
    expect(done).toBe(true);
    const last = events.at(-1) as { error?: { message: string } };
    expect(last.error?.message).toMatch(/timed out|stopped sending/i);
    expect(env.fake.requests).toHaveLength(1);
    await expectUncharged(org);
  });
});
