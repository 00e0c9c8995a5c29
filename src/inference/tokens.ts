import { decode, encode } from "gpt-tokenizer/encoding/o200k_base";
import type { ChatMessage } from "./provider.js";

/*
 * o200k_base is the encoding of current OpenAI models (GPT-4o onwards, o-series, gpt-oss), and its
 * ~200k vocabulary is closer to today's open-weight models (Qwen ~151k, Llama 3 ~128k) than
 * cl100k's, so estimates for self-hosted models land nearer to what their servers report.
 */

/** Special-token strings in user text are counted as plain text instead of throwing. */
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/** Role and delimiter tokens OpenAI's chat format adds around every message. */
const MESSAGE_OVERHEAD_TOKENS = 4;
/** Tokens that prime the assistant's reply. */
const REPLY_PRIMING_TOKENS = 3;

/**
 * Counting is linear in the text (~0.7 ms for 20 kB) and prompts are counted on the event loop
 * before every request. Clients resend the same long system prompts and questions (ensembles,
 * `n` samples, batches), so prompt counts are remembered per text, up to this many characters.
 */
const COUNT_CACHE_CHARACTERS = 8_000_000;
const counted = new Map<string, number>();
let cachedCharacters = 0;

export function countTextTokens(text: string): number {
  return encode(text, PLAIN_TEXT).length;
}

/** countTextTokens for prompt text, which is often sent again. */
export function countPromptTokens(text: string): number {
  const known = counted.get(text);
  if (known !== undefined) return known;
  const count = countTextTokens(text);
  remember(text, count);
  return count;
}

function remember(text: string, count: number): void {
  if (text.length > COUNT_CACHE_CHARACTERS / 4) return;
  counted.set(text, count);
  cachedCharacters += text.length;
  // Maps iterate in insertion order: the oldest entries go first.
  for (const oldest of counted.keys()) {
    if (cachedCharacters <= COUNT_CACHE_CHARACTERS) break;
    counted.delete(oldest);
    cachedCharacters -= oldest.length;
  }
}

export function countChatTokens(messages: ChatMessage[]): number {
  let total = REPLY_PRIMING_TOKENS;
  for (const message of messages) {
    total += MESSAGE_OVERHEAD_TOKENS + countPromptTokens(message.content);
  }
  return total;
}

/** Keeps at most `maxTokens` tokens of `text`. */
export function truncateToTokens(
  text: string,
  maxTokens: number,
): { text: string; truncated: boolean } {
  const tokens = encode(text, PLAIN_TEXT);
  if (tokens.length <= maxTokens) return { text, truncated: false };
  // A cut inside a multi-byte character decodes to U+FFFD; drop that partial character.
  const kept = decode(tokens.slice(0, Math.max(0, maxTokens))).replace(/\uFFFD+$/u, "");
  return { text: kept, truncated: true };
}
