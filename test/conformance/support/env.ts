import type OpenAI from "openai";
import type { Services } from "../../../src/services.js";
import type { Clock } from "../../../src/util/clock.js";
import { BASELINE, MODEL, sdkClient, upstreamModel } from "../../completions/support/env.js";
import { ScriptedProvider } from "../../research/support/scripted-provider.js";
import { type FakeUpstream, startFakeUpstream } from "../../support/fake-upstream.js";
import { startTestServer, type TestOrg } from "../../support/server.js";

export { BASELINE, MODEL };

/** A model on the fake upstream that gives up on a reply after 300 ms, trying once. */
export const IMPATIENT_MODEL = "impatient-model";

export interface ConformanceEnv {
  url: string;
  fake: FakeUpstream;
  services: Services;
  /** The `news_search` research source. */
  news: ScriptedProvider;
  /** A new organization holding `usd` of credits, and its key. */
  org(usd?: string): Promise<TestOrg>;
  client(apiKey: string): OpenAI;
  close(): Promise<void>;
}

/**
 * The real server on loopback over a fresh SQLite file, with a batch worker, the fake upstream
 * as its priced models (`test-model`, 1,000 tokens at most per reply, and IMPATIENT_MODEL), the
 * built-in baseline and a scripted news source for research.
 */
export async function startConformanceEnv(
  options: { requestsPerMinute?: number; bodyStallSeconds?: number; clock?: Clock } = {},
): Promise<ConformanceEnv> {
  const fake = await startFakeUpstream();
  const news = new ScriptedProvider("scripted-news", true);
  const server = await startTestServer({
    config: {
      models: [
        upstreamModel(fake.url),
        upstreamModel(fake.url, { id: IMPATIENT_MODEL, headersMs: 300, retryAttempts: 1 }),
        { id: BASELINE, provider: "baseline", max_completion_tokens: 4_096 },
      ],
      limits: { requests_per_minute: options.requestsPerMinute ?? 100_000 },
      ...(options.bodyStallSeconds
        ? { server: { body_stall_seconds: options.bodyStallSeconds } }
        : {}),
      research: { sources: { news_search: { provider: "scripted-news" } }, cache_seconds: 0 },
    },
    services: { env: {}, researchProviders: { "scripted-news": news } },
    ...(options.clock ? { clock: options.clock } : {}),
    worker: true,
  });
  return {
    url: server.url,
    fake,
    services: server.services,
    news,
    org: (usd = "10") => server.createOrg(usd),
    client: (apiKey) => sdkClient(server.url, apiKey),
    close: async () => {
      await server.close();
      await fake.close();
    },
  };
}

export type Json = Record<string, unknown>;

/** A raw JSON request to Sibyl: the body exactly as sent, no SDK in between. */
export async function call(
  env: ConformanceEnv,
  method: string,
  path: string,
  apiKey: string | null,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; contentType: string; text: string; json: () => Json }> {
  const sent = {
    ...(apiKey === null ? {} : { authorization: `Bearer ${apiKey}` }),
    ...(body === undefined ? {} : { "content-type": "application/json" }),
    ...headers,
  };
  const response = await fetch(`${env.url}${path}`, {
    method,
    headers: sent,
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    contentType: response.headers.get("content-type") ?? "",
    text,
    json: () => JSON.parse(text) as Json,
  };
}
