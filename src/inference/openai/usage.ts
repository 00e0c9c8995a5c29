import type { ProviderUsage } from "../provider.js";
import { isJsonObject, numberField, objectField } from "./json.js";

/** Maps an OpenAI `usage` object; null when the server reported none. */
export function readUsage(raw: unknown): ProviderUsage | null {
  if (!isJsonObject(raw)) return null;
  const promptTokens = numberField(raw, "prompt_tokens");
  const completionTokens = numberField(raw, "completion_tokens");
  if (promptTokens === null || completionTokens === null) return null;
  const details = objectField(raw, "completion_tokens_details");
  return {
    promptTokens,
    completionTokens,
    reasoningTokens: (details && numberField(details, "reasoning_tokens")) ?? 0,
  };
}
