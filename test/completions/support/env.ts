import OpenAI from "openai";
import type { Clock } from "../../../src/util/clock.js";
import { type FakeUpstream, startFakeUpstream } from "../../support/fake-upstream.js";
import { startTestServer, type TestOrg, type TestServer } from "../../support/server.js";

/** Per-token prices of the test model, as configured and as nano-dollars per token. */
export const PRICE = {
  prompt: "0.000001",
  completion: "0.000002",
  promptNanos: 1_000,
  completionNanos: 2_000,
} as const;

export const MODEL = "test-model";
export const BASELINE = "sibyl-baseline";
export const MAX_COMPLETION_TOKENS = 1_000;

export interface ModelOptions {
  id?: string;
  upstreamModel?: string;
  pricing?: { prompt: string; completion: string };
  headersMs?: number;
  bodyMs?: number;
  retryAttempts?: number;
}

/** An upstream model served by the fake, configured as an operator would write it. */
export function upstreamModel(
  baseUrl: string,
  options: ModelOptions = {},
): Record<string, unknown> {
  return {
    id: options.id ?? MODEL,
    provider: "openai",
    base_url: baseUrl,
    ...(options.upstreamModel ? { upstream_model: options.upstreamModel } : {}),
    pricing: options.pricing ?? { prompt: PRICE.prompt, completion: PRICE.completion },
    max_completion_tokens: MAX_COMPLETION_TOKENS,
    context_length: 32_768,
    retry_attempts: options.retryAttempts ?? 2,
    timeouts: {
      connect_ms: 1_000,
      headers_ms: options.headersMs ?? 2_000,
      body_ms: options.bodyMs ?? 2_000,
    },
  };
}

export interface EnvOptions {
  /** Extra models beside test-model and the baseline (they may point at `fake.url`). */
  models?: (fakeUrl: string) => Record<string, unknown>[];
  modelOptions?: ModelOptions;
  requestsPerMinute?: number;
  /** The model that classifies `answer_type: auto` questions (default: the rules). */
  classificationModel?: string;
  databaseUrl?: string;
  clock?: Clock;
}

export interface CompletionsEnv {
  fake: FakeUpstream;
  server: TestServer;
  /** A new organization holding `usd` of credits. */
  org(usd?: string): Promise<TestOrg>;
  /** An SDK client for the key, at `/v1` or at `/v1/compat`; it never retries on its own. */
  client(apiKey: string, prefix?: "/v1" | "/v1/compat"): OpenAI;
  close(): Promise<void>;
}

/** The real server over a real database, with the fake upstream as its model server. */
export async function startCompletionsEnv(options: EnvOptions = {}): Promise<CompletionsEnv> {
  const fake = await startFakeUpstream();
  const models = [
    upstreamModel(fake.url, options.modelOptions),
    ...(options.models?.(fake.url) ?? []),
    { id: BASELINE, provider: "baseline", max_completion_tokens: 4_096 },
  ];
  const server = await startTestServer({
    config: {
      models,
      limits: { requests_per_minute: options.requestsPerMinute ?? 100_000 },
      ...(options.classificationModel
        ? { classification: { model: options.classificationModel } }
        : {}),
    },
    ...(options.databaseUrl ? { databaseUrl: options.databaseUrl } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  return {
    fake,
    server,
    org: (usd = "10") => server.createOrg(usd),
    client: (apiKey, prefix = "/v1") => sdkClient(server.url, apiKey, prefix),
    close: async () => {
      await server.close();
      await fake.close();
    },
  };
}

export function sdkClient(baseUrl: string, apiKey: string, prefix = "/v1"): OpenAI {
  return new OpenAI({ apiKey, baseURL: `${baseUrl}${prefix}`, maxRetries: 0, timeout: 20_000 });
}
