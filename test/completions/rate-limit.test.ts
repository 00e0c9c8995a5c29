import { APIError } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestDatabase } from "../support/postgres.js";
import { createTestDatabase } from "../support/postgres.js";
import { startTestServer, type TestServer } from "../support/server.js";
import {
  type CompletionsEnv,
  MODEL,
  sdkClient,
  startCompletionsEnv,
  upstreamModel,
} from "./support/env.js";
import { rejection } from "./support/errors.js";
import { post } from "./support/sse.js";

/** 12:00:10 UTC: ten seconds into a one-minute window, far from its edges. */
const NOW = Date.UTC(2025, 5, 2, 12, 0, 10);
const clock = { now: () => NOW };
const WINDOW_END = Math.floor(NOW / 1000) + 50;
const LIMIT = 3;

const messages = [{ role: "user" as const, content: "Q" }];
const chat = { model: MODEL, messages };

describe("requests per minute", () => {
  let env: CompletionsEnv;

  beforeAll(async () => {
    env = await startCompletionsEnv({ requestsPerMinute: LIMIT, clock });
  });
  afterAll(async () => {
    await env.close();
  });

  it("answers the request over the limit with 429 and the rate-limit headers", async () => {
    const org = await env.org("1");
    const remaining: (string | null)[] = [];
    for (let i = 0; i < LIMIT; i += 1) {
      const path = i === 1 ? "/v1/completions" : "/v1/chat/completions";
      const body = i === 1 ? { model: MODEL, prompt: "Q" } : chat;
      const response = await post(env.server.url, path, org.apiKey, body);
      expect(response.status).toBe(200);
      expect(response.headers.get("x-ratelimit-limit")).toBe(String(LIMIT));
      expect(response.headers.get("x-ratelimit-reset")).toBe(String(WINDOW_END));
      remaining.push(response.headers.get("x-ratelimit-remaining"));
      await response.text();
    }
    expect(remaining).toEqual(["2", "1", "0"]);

    const refused = await post(env.server.url, "/v1/chat/completions", org.apiKey, chat);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("50");
    expect(refused.headers.get("x-ratelimit-limit")).toBe(String(LIMIT));
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(refused.headers.get("x-ratelimit-reset")).toBe(String(WINDOW_END));
    const body = (await refused.json()) as { error: { type: string; message: string } };
    expect(body.error.type).toBe("rate_limit_error");
    expect(env.fake.requests).toHaveLength(LIMIT);
  });

  it("counts each organization on its own", async () => {
    const org = await env.org("1");
    const response = await post(env.server.url, "/v1/chat/completions", org.apiKey, chat);
    expect(response.status).toBe(200);
  });

  it("shows the SDK a 429 once it stops retrying", async () => {
    const org = await env.org("1");
    const client = env.client(org.apiKey);
    for (let i = 0; i < LIMIT; i += 1) {
      await client.chat.completions.create(chat);
    }
    const error = await rejection(client.chat.completions.create(chat));
    expect(error.status).toBe(429);
  });
});

describe("requests per minute across two servers sharing PostgreSQL", () => {
  let postgres: TestDatabase;
  let env: CompletionsEnv;
  let second: TestServer;

  beforeAll(async () => {
    postgres = await createTestDatabase();
    env = await startCompletionsEnv({ requestsPerMinute: LIMIT, clock, databaseUrl: postgres.url });
    second = await startTestServer({
      config: { models: [upstreamModel(env.fake.url)], limits: { requests_per_minute: LIMIT } },
      databaseUrl: postgres.url,
      clock,
    });
  });
  afterAll(async () => {
    second?.app.server.closeAllConnections();
    await second?.close();
    await env?.close();
    await postgres?.drop();
  });

  it("holds the limit for an organization whose requests alternate between servers", async () => {
    const org = await env.org("1");
    const servers = [env.server.url, second.url];
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 2; i += 1) {
      const response = await post(
        servers[i % 2] as string,
        "/v1/chat/completions",
        org.apiKey,
        chat,
      );
      statuses.push(response.status);
      await response.text();
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(env.fake.requests).toHaveLength(LIMIT);
  });

  it("holds the limit under concurrent requests to both servers", async () => {
    const org = await env.org("1");
    const clients = [sdkClient(env.server.url, org.apiKey), sdkClient(second.url, org.apiKey)];
    const outcomes = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) =>
        (clients[i % 2] ?? clients[0])?.chat.completions.create({
          model: MODEL,
          messages: [{ role: "user", content: `Q${i}` }],
        }),
      ),
    );
    const ok = outcomes.filter((outcome) => outcome.status === "fulfilled");
    const limited = outcomes.filter(
      (outcome) =>
        outcome.status === "rejected" &&
        outcome.reason instanceof APIError &&
        outcome.reason.status === 429,
    );
    expect(ok).toHaveLength(LIMIT);
    expect(limited).toHaveLength(12 - LIMIT);
  });
});
