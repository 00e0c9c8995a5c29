import type OpenAI from "openai";
import { APIError } from "openai";
import type { CompletionsEnv } from "./env.js";

/** A model whose every call costs exactly its worst case: no prompt price, full max_tokens. */
export const FLAT_MODEL = "flat-model";
export const FLAT_MAX_TOKENS = 100;
/** 100 tokens × $0.000002. */
export const FLAT_CALL_NANOS = 200_000;

export function flatModel(baseUrl: string): Record<string, unknown> {
  return {
    id: FLAT_MODEL,
    provider: "openai",
    base_url: baseUrl,
    pricing: { prompt: "0", completion: "0.000002" },
    max_completion_tokens: 1_000,
    context_length: 32_768,
  };
}

export interface BurstResult {
  succeeded: number;
  refused: number;
  other: unknown[];
  /** The lowest balance seen while the burst ran. */
  lowestBalance: number;
}

type Call = (client: OpenAI) => Promise<unknown>;

const messages = [{ role: "user" as const, content: "Will it happen?" }];
const common = { model: FLAT_MODEL, max_tokens: FLAT_MAX_TOKENS };

/** Four ways the SDK calls Sibyl: chat and text, whole and streamed. */
const calls: Call[] = [
  (client) => client.chat.completions.create({ ...common, messages }),
  async (client) => {
    const stream = await client.chat.completions.create({ ...common, messages, stream: true });
    for await (const _ of stream) {
      // read to the end
    }
  },
  (client) => client.completions.create({ ...common, prompt: "It will happen:" }),
  (client) => client.chat.completions.stream({ ...common, messages }).finalChatCompletion(),
];

/**
 * Fires `count` requests at once (a mix of SDK calls at /v1 and /v1/compat) while watching the
 * balance, and sorts the outcomes.
 */
export async function burst(
  env: CompletionsEnv,
  apiKey: string,
  organizationId: string,
  count: number,
): Promise<BurstResult> {
  env.fake.setDefault({
    usage: { prompt_tokens: 50, completion_tokens: FLAT_MAX_TOKENS },
    headersDelayMs: 20,
    chunkDelayMs: 1,
  });
  const clients = [env.client(apiKey, "/v1"), env.client(apiKey, "/v1/compat")];
  let lowestBalance = Number.POSITIVE_INFINITY;
  let running = true;
  const watcher = (async () => {
    while (running) {
      const balance = await env.server.services.ledger.balance(organizationId);
      lowestBalance = Math.min(lowestBalance, balance);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  })();
  const outcomes = await Promise.allSettled(
    Array.from({ length: count }, (_, i) => {
      const call = calls[i % calls.length] as Call;
      return call(clients[i % clients.length] as OpenAI);
    }),
  );
  running = false;
  await watcher;
  const result: BurstResult = { succeeded: 0, refused: 0, other: [], lowestBalance };
  for (const outcome of outcomes) {
    if (outcome.status === "fulfilled") result.succeeded += 1;
    else if (outcome.reason instanceof APIError && outcome.reason.status === 402) {
      result.refused += 1;
    } else result.other.push(outcome.reason);
  }
  return result;
}
