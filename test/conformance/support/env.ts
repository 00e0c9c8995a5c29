import { rmSync } from "node:fs";
import OpenAI from "openai";
import { buildApp } from "../../../src/app.js";
import { createBatchWorker } from "../../../src/cli/worker.js";
import { createServices, type Services } from "../../../src/services.js";
import type { Clock } from "../../../src/util/clock.js";
import { usdToNanos } from "../../../src/util/money.js";
import { BASELINE, MODEL, upstreamModel } from "../../completions/support/env.js";
import { ScriptedProvider } from "../../research/support/scripted-provider.js";
import { type FakeUpstream, startFakeUpstream } from "../../support/fake-upstream.js";
import { writeTestConfig } from "../../support/server.js";
import { silentLog } from "../../support/silent-log.js";

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
  org(usd?: string): Promise<{ organizationId: string; apiKey: string }>;
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
  const { config, dataDir } = writeTestConfig({
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
  });
  const services = await createServices(config, {
    env: {},
    researchProviders: { "scripted-news": news },
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const app = await buildApp(services, { logger: false });
  const url = await app.listen({ host: "127.0.0.1", port: 0 });
  const worker = createBatchWorker(services, silentLog, { pollMs: 20 });
  return {
    url,
    fake,
    services,
    news,
    org: async (usd = "10") => {
      const organization = await services.organizations.create("conformance org");
      const key = await services.apiKeys.issue(organization.id);
      const nanos = usdToNanos(usd);
      if (nanos > 0) await services.ledger.credit(organization.id, nanos, "topup");
      return { organizationId: organization.id, apiKey: key.api_key };
    },
    client: (apiKey) =>
      new OpenAI({ apiKey, baseURL: `${url}/v1`, maxRetries: 0, timeout: 20_000 }),
    close: async () => {
      await worker.stop();
      app.server.closeAllConnections();
      await app.close();
      await services.close();
      await fake.close();
      rmSync(dataDir, { recursive: true, force: true });
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
