import type { FinishReason } from "../provider.js";
import { truncateToTokens } from "../tokens.js";

/**
 * Applies `stop` and `max_tokens` the way a server would while generating: the text ends at the
 * earliest stop sequence (excluded), and otherwise at the token limit.
 */
export function applyLimits(
  text: string,
  stop: string[] | null | undefined,
  maxTokens: number | null | undefined,
): { text: string; finishReason: FinishReason } {
  const stopAt = earliestStop(text, stop ?? []);
  const generated = stopAt === null ? text : text.slice(0, stopAt);
  if (maxTokens !== null && maxTokens !== undefined) {
    const limited = truncateToTokens(generated, maxTokens);
    if (limited.truncated) return { text: limited.text, finishReason: "length" };
  }
  return { text: generated, finishReason: "stop" };
}

function earliestStop(text: string, stops: string[]): number | null {
  let earliest: number | null = null;
  for (const stop of stops) {
    if (stop === "") continue;
    const at = text.indexOf(stop);
    if (at !== -1 && (earliest === null || at < earliest)) earliest = at;
  }
  return earliest;
}
