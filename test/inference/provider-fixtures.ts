import {
  createOpenAIProvider,
  type Deployment,
  type OpenAIProvider,
  type OpenAIProviderOptions,
} from "../../src/inference/openai/index.js";
import type { InferenceRequest, SamplingParams } from "../../src/inference/provider.js";

/** A provider with millisecond-scale retries and timeouts, so failure tests stay fast. */
export function testProvider(
  deployments: Deployment[],
  overrides: Omit<Partial<OpenAIProviderOptions>, "deployments"> = {},
): OpenAIProvider {
  return createOpenAIProvider({
    deployments,
    timeouts: { connectMs: 500, headersMs: 2_000, bodyMs: 2_000, ...overrides.timeouts },
    retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 20, ...overrides.retry },
  });
}

export function deployment(baseUrl: string, upstreamModel = "upstream/model"): Deployment {
  return { baseUrl, apiKey: null, upstreamModel };
}

export function chatRequest(
  content: string,
  params: Partial<SamplingParams> = {},
  signal?: AbortSignal,
): InferenceRequest {
  return {
    input: { kind: "chat", messages: [{ role: "user", content }] },
    params: { n: 1, ...params },
    ...(signal ? { signal } : {}),
  };
}

export async function collect<T>(events: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const event of events) all.push(event);
  return all;
}
