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

export function countTextTokens(text: string): number {
  return encode(text, PLAIN_TEXT).length;
}

export function countChatTokens(messages: ChatMessage[]): number {
  let total = REPLY_PRIMING_TOKENS;
  for (const message of messages) {
    total += MESSAGE_OVERHEAD_TOKENS + countTextTokens(message.content);
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
