import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ApiClient, ApiStatusError } from "../../src/evaluation/client/api-client.js";
import { retryDelayMs } from "../../src/evaluation/client/retry-delay.js";
import { BacktestError } from "../../src/evaluation/errors.js";

type Reply = { status: number; body: unknown; headers?: Record<string, string> };

describe("the backtest's API client", () => {
  let replies: Reply[] = [];
  const seen: { method: string; url: string; authorization: string | undefined }[] = [];
  let url = "";
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on("end", () => {
      seen.push({
        method: req.method ?? "",
        url: req.url ?? "",
        authorization: req.headers.authorization,
      });
      const reply = replies.shift() ?? { status: 200, body: { object: "list", data: [] } };
      res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
      res.end(JSON.stringify(reply.body));
    });
  });

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    replies = [];
    seen.length = 0;
  });

  const client = (retries: string[] = []) =>
    new ApiClient({ baseUrl: `${url}/v1/`, apiKey: "sk-test", onRetry: (m) => retries.push(m) });

  it("waits as Retry-After says on a 429, then goes on", async () => {
    replies = [
      { status: 429, body: { error: { message: "slow down" } }, headers: { "retry-after": "0" } },
      {
        status: 200,
        body: { object: "list", data: [{ id: "m1", knowledge_cutoff: "2025-01-01" }] },
      },
    ];
    const retries: string[] = [];
    expect(await client(retries).listModels()).toEqual([
      { id: "m1", knowledge_cutoff: "2025-01-01" },
    ]);
    expect(retries).toEqual(["GET /models: rate limited; retrying in 0.0 s"]);
    expect(seen.map((s) => s.url)).toEqual(["/v1/models", "/v1/models"]);
    expect(seen[0]?.authorization).toBe("Bearer sk-test");
  });

  it("retries 5xx replies with backoff and gives up after its attempts", async () => {
    replies = [
      { status: 503, body: { error: { message: "busy" } }, headers: { "retry-after-ms": "5" } },
      {
        status: 502,
        body: { error: { message: "bad gateway" } },
        headers: { "retry-after-ms": "5" },
      },
      { status: 200, body: { id: "batch_1", status: "completed" } },
    ];
    expect((await client().getBatch("batch_1")).id).toBe("batch_1");
    expect(seen).toHaveLength(3);

    replies = Array.from({ length: 6 }, () => ({
      status: 500,
      body: { error: { message: "boom" } },
      headers: { "retry-after-ms": "1" },
    }));
    seen.length = 0;
    const failure = await client()
      .getBatch("batch_1")
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiStatusError);
    expect((failure as ApiStatusError).status).toBe(500);
    expect(seen).toHaveLength(6);
  });

  it("does not retry a reply marked x-should-retry: false", async () => {
    replies = [
      { status: 503, body: { error: { message: "no" } }, headers: { "x-should-retry": "false" } },
    ];
    await expect(client().getBatch("b")).rejects.toThrow(/503 no/);
    expect(seen).toHaveLength(1);
  });

  it("stops at a 402 with a message on how to go on", async () => {
    replies = [
      {
        status: 402,
        body: { error: { message: "Insufficient credits", code: "insufficient_credits" } },
      },
    ];
    const failure = await client()
      .createBatch("file-1", {})
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(BacktestError);
    expect((failure as Error).message).toMatch(/lack of credits \(402: Insufficient credits\)/);
    expect((failure as Error).message).toMatch(/run the same command again: it resumes/);
    expect(seen).toHaveLength(1);
  });

  it("reads a missing /v1/balance as no balance, and other 4xx as errors", async () => {
    replies = [{ status: 404, body: { error: { message: "Not found" } } }];
    expect(await client().balanceUsd()).toBeNull();
    replies = [{ status: 401, body: { error: { message: "Invalid API key" } } }];
    await expect(client().balanceUsd()).rejects.toThrow(/401 Invalid API key/);
  });

  it("computes retry delays from the headers, else exponential backoff", () => {
    expect(retryDelayMs(1, { "retry-after": "3" })).toBe(3000);
    expect(retryDelayMs(1, { "retry-after-ms": "250" })).toBe(250);
    const date = new Date(Date.now() + 60_000).toUTCString();
    expect(retryDelayMs(1, { "retry-after": date })).toBeGreaterThan(50_000);
    const third = retryDelayMs(3, {});
    expect(third).toBeGreaterThanOrEqual(1000);
    expect(third).toBeLessThanOrEqual(2000);
    expect(retryDelayMs(20, undefined)).toBeLessThanOrEqual(30_000);
  });
});
