import { decode } from "./bpe/o200k-base.js";
import { o200kVocabulary } from "./bpe/o200k-vocabulary.js";
import type { ChatMessage } from "./provider.js";
import { EXACT_CHARACTERS, estimateTokens } from "./token-estimate.js";
import { characterBoundary, countSpanTokens, encodeSegment, segmentEnd } from "./token-segments.js";

/*
 * o200k_base is the encoding of current OpenAI models (GPT-4o onwards, o-series, gpt-oss), and its
 * ~200k vocabulary is closer to today's open-weight models (Qwen ~151k, Llama 3 ~128k) than
 * cl100k's, so estimates for self-hosted models land nearer to what their servers report.
 *
 * Counts run on the event loop before every request, so each call counts at most
 * EXACT_CHARACTERS characters exactly and estimates beyond that (see token-estimate.ts). They
 * size credit holds and the context-length check; a model server's own usage, when it reports
 * one, is what is billed.
 */

/** Role and delimiter tokens OpenAI's chat format adds around every message. */
const MESSAGE_OVERHEAD_TOKENS = 4;
/** Tokens that prime the assistant's reply. */
const REPLY_PRIMING_TOKENS = 3;

/**
 * Clients resend the same system prompts and questions (ensembles, `n` samples, retries, bots
 * asking again), so exact counts are remembered per text, up to this many characters in all (up
 * to 4 MB of text), the most recently used kept.
 */
const COUNT_CACHE_CHARACTERS = 2_000_000;
/**
 * Shorter texts are counted again each time: a 52-character question costs ~1 µs, a
 * 1,200-character system prompt ~45 µs. So a batch's stream of short one-off questions
 * takes no memory.
 */
const REMEMBERED_CHARACTERS = 256;
const counted = new Map<string, number>();
let cachedCharacters = 0;

/** Builds the vocabulary now (~60 ms), so that a server's first request does not wait for it. */
export function loadTokenizer(): void {
  o200kVocabulary();
}

export function countTextTokens(text: string): number {
  return estimateTokens([text]);
}

/** The tokens of several texts together, within one counting budget. */
export function countTextListTokens(texts: readonly string[]): number {
  return estimateTokens(texts);
}

/** countTextTokens for prompt text, which is often sent again. */
export function countPromptTokens(text: string): number {
  return countPromptListTokens([text]);
}

/**
 * The tokens of several prompts together: remembered counts are reused, and the rest share one
 * counting budget, so many prompts cost no more event-loop time than one long prompt.
 */
export function countPromptListTokens(prompts: readonly string[]): number {
  let total = 0;
  const unknown: string[] = [];
  for (const prompt of prompts) {
    const known = counted.get(prompt);
    if (known === undefined) {
      unknown.push(prompt);
      continue;
    }
    total += known;
    // Moved to the end, so a prompt in steady use outlives a stream of one-off ones.
    counted.delete(prompt);
    counted.set(prompt, known);
  }
  const unknownCharacters = unknown.reduce((sum, prompt) => sum + prompt.length, 0);
  if (unknownCharacters > EXACT_CHARACTERS) return total + estimateTokens(unknown);
  for (const prompt of unknown) {
    const count = countSpanTokens(prompt, 0, prompt.length);
    remember(prompt, count);
    total += count;
  }
  return total;
}

/** Only exact counts are remembered: an estimate costs no more to make again. */
function remember(text: string, count: number): void {
  // The same text may come twice in one list; its characters are counted once.
  if (text.length < REMEMBERED_CHARACTERS || counted.has(text)) return;
  counted.set(text, count);
  cachedCharacters += text.length;
  // Maps iterate in insertion order: the oldest entries go first.
  for (const oldest of counted.keys()) {
    if (cachedCharacters <= COUNT_CACHE_CHARACTERS) break;
    counted.delete(oldest);
    cachedCharacters -= oldest.length;
  }
}

/** The tokens one message adds to a chat: its text, its role and delimiters. */
export function countMessageTokens(message: ChatMessage): number {
  return MESSAGE_OVERHEAD_TOKENS + countPromptTokens(message.content);
}

export function countChatTokens(messages: ChatMessage[]): number {
  const overhead = REPLY_PRIMING_TOKENS + MESSAGE_OVERHEAD_TOKENS * messages.length;
  return overhead + countPromptListTokens(messages.map((message) => message.content));
}

/**
 * Keeps at most `maxTokens` tokens of `text`. The first EXACT_CHARACTERS characters are cut
 * exactly; a cut beyond them is placed by that part's tokens per character.
 */
export function truncateToTokens(
  text: string,
  maxTokens: number,
): { text: string; truncated: boolean } {
  const limit = Math.max(0, maxTokens);
  let keptTokens = 0;
  let position = 0;
  while (position < text.length && position < EXACT_CHARACTERS) {
    const end = segmentEnd(text, position, text.length);
    const tokens = encodeSegment(text, position, end);
    if (keptTokens + tokens.length > limit) {
      // A cut inside a multi-byte character decodes to U+FFFD; drop that partial character.
      const partial = decode(tokens.slice(0, limit - keptTokens)).replace(/\uFFFD+$/u, "");
      return { text: text.slice(0, position) + partial, truncated: true };
    }
    keptTokens += tokens.length;
    position = end;
  }
  if (position >= text.length) return { text, truncated: false };
  const cut = position + Math.floor((limit - keptTokens) * (position / keptTokens));
  if (cut >= text.length) return { text, truncated: false };
  return { text: text.slice(0, characterBoundary(text, cut)), truncated: true };
}
