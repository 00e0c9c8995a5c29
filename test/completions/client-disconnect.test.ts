import { Client } from "undici";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { countChatTokens, countTextTokens } from "../../src/inference/tokens.js";
import { eventually } from "../support/polling.js";
import { parsePrometheus, sampleValue } from "../support/prometheus.js";
import { type CompletionsEnv, MODEL, startCompletionsEnv } from "./support/env.js";
import { balanceNanos, charges, costNanos } from "./support/money.js";
import { upstreamBody } from "./support/sibyl-types.js";
import { type Json, post, readEvents } from "./support/sse.js";

let env: CompletionsEnv;

beforeAll(async () => {
  env = await startCompletionsEnv();
});
afterEach(() => env.fake.reset());
afterAll(async () => {
  await env.close();
});

const longReply = Array.from({ length: 60 }, (_, i) => `word${i}`).join(" ");

/** Opens a stream, reads `keep` events, then goes away; returns the events read. */
async function readThenLeave(path: string, apiKey: string, body: Json, keep: number) {
  const controller = new AbortController();
  const response = await post(env.server.url, path, apiKey, body, { signal: controller.signal });
  expect(response.status).toBe(200);
  const events: Json[] = [];
  for await (const event of readEvents(response)) {
    events.push(event);
    if (events.length === keep) break;
  }
  controller.abort();
  return events;
}

/** Asks for a completion the model takes its time over, and goes away once it has started. */
async function leaveWhileTheModelRuns(apiKey: string): Promise<void> {
  env.fake.enqueue({ headersDelayMs: 1_000 });
  const controller = new AbortController();
  const pending = post(
    env.server.url,
    "/v1/chat/completions",
    apiKey,
    { model: MODEL, messages: [{ role: "user", content: "Take your time." }] },
    { signal: controller.signal },
  ).catch((error: unknown) => error);
  await eventually(async () => (env.fake.requests.length > 0 ? true : undefined));
  controller.abort();
  await pending;
}

describe("a client leaving before a whole reply", () => {
  it("stops the upstream request and charges nothing", async () => {
    const org = await env.org("1");
    await leaveWhileTheModelRuns(org.apiKey);
    expect(await env.fake.requests[0]?.settled).toBe("aborted");
    await eventually(async () =>
      (await balanceNanos(env.server.url, org.apiKey)) === 1e9 ? true : undefined,
    );
    expect(await charges(env.server.services, org.organizationId)).toEqual([]);
  });

  it("is counted as the client's doing (499), never as a model server failure (502)", async () => {
    const org = await env.org("1");
    const count = async (status: string) => {
      const text = await (await fetch(`${env.server.url}/metrics`)).text();
      return (
        sampleValue(parsePrometheus(text), "sibyl_http_requests_total", {
          method: "POST",
          route: "/v1/chat/completions",
          status,
        }) ?? 0
      );
    };
    const before = { gone: await count("499"), failed: await count("502") };
    await leaveWhileTheModelRuns(org.apiKey);
    await eventually(async () => ((await count("499")) === before.gone + 1 ? true : undefined));
    expect(await count("502")).toBe(before.failed);
  });
});

describe("a client leaving mid-stream", () => {
  it("stops the upstream request and charges only what was generated", async () => {
    const org = await env.org("1");
    env.fake.enqueue({ contents: [longReply], chunkDelayMs: 25 });
    const events = await readThenLeave(
      "/v1/chat/completions",
      org.apiKey,
      { model: MODEL, messages: [{ role: "user", content: "Count slowly." }], stream: true },
      3,
    );
    const upstream = env.fake.requests[0];
    expect(await upstream?.settled).toBe("aborted");
    expect(upstream?.chunksSent).toBeLessThan(20);

    const id = String(events[0]?.id);
    const [charge] = await eventually(async () => {
      const found = await charges(env.server.services, org.organizationId);
      return found.length > 0 ? found : undefined;
    });
    expect(charge?.reference).toBe(id);
    const charged = -(charge?.amount_nanos ?? 0);

    const sent = upstreamBody(upstream?.body).messages ?? [];
    const promptTokens = countChatTokens(
      sent.map((m) => ({ role: m.role as "system" | "user" | "assistant", content: m.content })),
    );
    const fullReply = costNanos(promptTokens, countTextTokens(longReply));
    const promptOnly = costNanos(promptTokens, 0);
    expect(charged).toBeGreaterThan(promptOnly);
    expect(charged).toBeLessThan(fullReply);
    expect(await balanceNanos(env.server.url, org.apiKey)).toBe(1e9 - charged);
  });

  it("stops a text completion stream the same way", async () => {
    const org = await env.org("1");
    env.fake.enqueue({ contents: [longReply], chunkDelayMs: 25 });
    const events = await readThenLeave(
      "/v1/completions",
      org.apiKey,
      { model: MODEL, prompt: "Count slowly:", stream: true },
      3,
    );
    expect(await env.fake.requests[0]?.settled).toBe("aborted");
    const [charge] = await eventually(async () => {
      const found = await charges(env.server.services, org.organizationId);
      return found.length > 0 ? found : undefined;
    });
    expect(charge?.reference).toBe(String(events[0]?.id));
    const promptTokens = countTextTokens("Count slowly:");
    const charged = -(charge?.amount_nanos ?? 0);
    expect(charged).toBeGreaterThan(costNanos(promptTokens, 0));
    expect(charged).toBeLessThan(costNanos(promptTokens, countTextTokens(longReply)));
  });

  it("leaves no hold behind", async () => {
    const org = await env.org("1");
    env.fake.enqueue({ contents: [longReply], chunkDelayMs: 25 });
    await readThenLeave(
      "/v1/chat/completions",
      org.apiKey,
      { model: MODEL, messages: [{ role: "user", content: "Count." }], stream: true },
      2,
    );
    await env.fake.requests[0]?.settled;
    const charged = await eventually(async () => {
      const found = await charges(env.server.services, org.organizationId);
      return found[0] ? -found[0].amount_nanos : undefined;
    });
    // The balance reflects the charge alone: the worst-case hold was returned.
    await eventually(async () =>
      (await balanceNanos(env.server.url, org.apiKey)) === 1e9 - charged ? true : undefined,
    );
  });
});

describe("a client that keeps its connection", () => {
  it("gets every completion it sends over it, streamed or not, and nothing is left listening", async () => {
    const org = await env.org("1");
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on("warning", onWarning);
    // A Client holds one connection: each request reuses the socket the one before it used.
    const client = new Client(env.server.url, { pipelining: 1 });
    let connects = 0;
    client.on("connect", () => {
      connects += 1;
    });
    try {
      for (let i = 0; i < 30; i += 1) {
        const stream = i % 2 === 1;
        const response = await client.request({
          method: "POST",
          path: "/v1/chat/completions",
          headers: { authorization: `Bearer ${org.apiKey}`, "content-type": "application/json" },
          body: JSON.stringify({
            model: MODEL,
            messages: [{ role: "user", content: `Question ${i}` }],
            ...(stream ? { stream: true } : {}),
          }),
        });
        const text = await response.body.text();
        expect(response.statusCode).toBe(200);
        expect(text).toContain(stream ? "[DONE]" : '"finish_reason"');
      }
      expect(env.fake.requests.map((request) => request.settled)).not.toContain("aborted");
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.map((warning) => warning.message)).toEqual([]);
    } finally {
      process.off("warning", onWarning);
      await client.close();
    }
    expect(connects).toBe(1);
    expect(await charges(env.server.services, org.organizationId)).toHaveLength(30);
  });
});
