import { type DateMention, dateMentions } from "./date-mentions.js";
import type { ResearchResult } from "./source.js";

/**
 * The leak guard: with an as-of cutoff, a result reaches the model only if nothing about it is
 * later than the cutoff. Providers' own date filters are not trusted (publishers overwrite
 * publish dates with edit dates, search engines index pages with wrong dates), so every result
 * of every provider passes through here.
 */

export type LeakReason =
  | "no_date"
  | "published_after_cutoff"
  | "first_seen_after_cutoff"
  | "later_date_in_text";

export interface LeakVerdict {
  reason: LeakReason;
  /** The later date the text names, for `later_date_in_text`. */
  mention?: DateMention;
}

/**
 * Longest title, snippet and text kept from a result. Whatever reaches the model comes from
 * these bounded fields, and the guard reads all of them, so nothing unread can slip through.
 */
const MAX_TITLE_CHARS = 500;
const MAX_SNIPPET_CHARS = 4_000;
const MAX_TEXT_CHARS = 60_000;

/** A result cut to the lengths the guard reads and the context uses. */
export function boundResult(result: ResearchResult): ResearchResult {
  // Object.assign, not a spread: see prepareCompletion (completions/plan.ts).
  return Object.assign({}, result, {
    title: cut(result.title, MAX_TITLE_CHARS),
    snippet: cut(result.snippet, MAX_SNIPPET_CHARS),
    text: cut(result.text, MAX_TEXT_CHARS),
  });
}

function cut(text: string | null, max: number): string | null {
  return text !== null && text.length > max ? text.slice(0, max) : text;
}

/**
 * Why `result` must not reach the model under `cutoff`, or null when it may. A date-only cutoff
 * is the first instant of that day, so a day or month named in the text counts as later when it
 * starts at or after the cutoff: a reference to the as-of day itself is dropped unless the
 * cutoff has a time later in that day. Call with a bounded result (see boundResult).
 */
export function leakVerdict(result: ResearchResult, cutoff: Date): LeakVerdict | null {
  const limit = cutoff.getTime();
  if (result.publishedAt === null && result.firstSeenAt === null) return { reason: "no_date" };
  if (result.publishedAt !== null && !(result.publishedAt.getTime() <= limit)) {
    return { reason: "published_after_cutoff" };
  }
  if (result.firstSeenAt !== null && !(result.firstSeenAt.getTime() <= limit)) {
    return { reason: "first_seen_after_cutoff" };
  }
  const context = result.publishedAt ?? result.firstSeenAt ?? cutoff;
  for (const text of [result.title, result.snippet, result.text]) {
    if (!text) continue;
    for (const mention of dateMentions(text, context)) {
      if (mention.start.getTime() >= limit) return { reason: "later_date_in_text", mention };
    }
  }
  return null;
}
