import type { ProviderUsage } from "../provider.js";
import { isJsonObject, type JsonObject } from "./json.js";

/**
 * The largest token count believed for one request. No served model's context, times any
 * sensible `n` or prompt batch, comes near it, and at any real price its cost is still a safe
 * integer of nano-dollars.
 */
const MAX_PLAUSIBLE_TOKENS = 1_000_000_000;

/**
 * Reads an OpenAI `usage` object: null when the server reported none, "implausible" when its
 * counts make no sense. Sensible means each count is a whole number in [0, MAX_PLAUSIBLE_TOKENS],
 * reasoning tokens are part of the completion tokens, and `total_tokens`, when sent, is their sum.
 */
function parseUsage(raw: unknown): ProviderUsage | null | "implausible" {
  if (!isJsonObject(raw) || (isAbsent(raw.prompt_tokens) && isAbsent(raw.completion_tokens))) {
    return null;
  }
  const promptTokens = tokenCount(raw.prompt_tokens);
  const completionTokens = tokenCount(raw.completion_tokens);
  const reasoningTokens = reasoningCount(raw);
  if (promptTokens === null || completionTokens === null || reasoningTokens === null) {
    return "implausible";
  }
  if (reasoningTokens > completionTokens) return "implausible";
  if (!isAbsent(raw.total_tokens) && raw.total_tokens !== promptTokens + completionTokens) {
    return "implausible";
  }
  return { promptTokens, completionTokens, reasoningTokens };
}

/** Usage to pass on for a whole reply: none unless the server's counts make sense. */
export function readUsage(raw: unknown): ProviderUsage | null {
  const usage = parseUsage(raw);
  return usage === "implausible" ? null : usage;
}

/**
 * Usage across the chunks of a stream. The last report wins, as servers that report on several
 * chunks send running totals; one report that makes no sense discredits them all, since the
 * earlier ones would then be partial counts.
 */
export class StreamUsage {
  private latest: ProviderUsage | null = null;
  private discredited = false;

  observe(raw: unknown): void {
    const usage = parseUsage(raw);
    if (usage === "implausible") this.discredited = true;
    else if (usage !== null) this.latest = usage;
  }

  get final(): ProviderUsage | null {
    return this.discredited ? null : this.latest;
  }
}

function reasoningCount(usage: JsonObject): number | null {
  const details = usage.completion_tokens_details;
  if (isAbsent(details)) return 0;
  if (!isJsonObject(details)) return null;
  return isAbsent(details.reasoning_tokens) ? 0 : tokenCount(details.reasoning_tokens);
}

function tokenCount(value: unknown): number | null {
  return typeof value === "number" &&
    Number.isSafeInteger(value) &&
    value >= 0 &&
    value <= MAX_PLAUSIBLE_TOKENS
    ? value
    : null;
}

function isAbsent(value: unknown): value is null | undefined {
  return value === null || value === undefined;
}
