import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CompletionsEnv, startCompletionsEnv, upstreamModel } from "./support/env.js";
import { rejection } from "./support/errors.js";
import { balanceNanos, charges } from "./support/money.js";

/** A loopback URL where nothing listens. */
async function refusedUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== "object" || address === null) throw new Error("no port");
  return `http://127.0.0.1:${address.port}/v1`;
}

let env: CompletionsEnv;

beforeAll(async () => {
  const nowhere = await refusedUrl();
  env = await startCompletionsEnv({
    models: () => [upstreamModel(nowhere, { id: "gone-model", retryAttempts: 1 })],
  });
});
afterAll(async () => {
  await env.close();
});

describe("an unreachable model server", () => {
  it.each([false, true])("answers 502 (stream %s) and charges nothing", async (stream) => {
    const org = await env.org("1");
    const error = await rejection(
      env.client(org.apiKey).chat.completions.create({
        model: "gone-model",
        messages: [{ role: "user", content: "Q" }],
        stream,
      }),
    );
    expect(error.status).toBe(502);
    expect(await balanceNanos(env.server.url, org.apiKey)).toBe(1e9);
    expect(await charges(env.server.services, org.organizationId)).toEqual([]);
  });
});
