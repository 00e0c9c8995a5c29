import { arrayField, isJsonObject, type JsonObject, stringField } from "./json.js";

/**
 * Reasoning text from a chat message, a stream delta or a text choice. Servers disagree on the
 * field: DeepSeek and older vLLM use `reasoning_content`, current vLLM and OpenRouter
 * `reasoning`; OpenRouter also sends structured `reasoning_details`.
 */
export function readReasoning(carrier: JsonObject): string | null {
  return (
    stringField(carrier, "reasoning_content") ??
    stringField(carrier, "reasoning") ??
    reasoningDetailsText(carrier)
  );
}

function reasoningDetailsText(carrier: JsonObject): string | null {
  const parts = arrayField(carrier, "reasoning_details")
    .filter(isJsonObject)
    .map((detail) => stringField(detail, "text") ?? stringField(detail, "summary"))
    .filter((text): text is string => text !== null);
  return parts.length > 0 ? parts.join("") : null;
}
