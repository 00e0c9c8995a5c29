import { type DateMention, laterMention } from "./dates/grammar.js";
import { decodedUrl } from "./shown-text.js";
import type { ResearchResult } from "./source.js";

/**
 * The leak guard. With an as-of cutoff a result reaches the model only if its dates are at or
 * before the cutoff and, unless its text is trusted, nothing it shows names a later time.
 * Providers' own date filters are not trusted (publishers overwrite publish dates with edit
 * dates, search engines index pages with wrong dates), so every result passes through here.
 *
 * Trust comes from provenance alone: text Sibyl's feed watcher stored when it first saw it, at or
 * before the cutoff, may name later days (a schedule is not a leak); any other text, whatever
 * dates it claims, is dropped when any field it shows names a time at or after the cutoff.
 */

export type LeakReason =
  | "no_date"
  | "published_after_cutoff"
  | "first_seen_after_cutoff"
  | "later_date_shown";

/** Why a result a source returned was not given to the model. */
export type DropReason = LeakReason | "not_a_web_address" | "duplicate";

export interface LeakVerdict {
  reason: LeakReason;
  /** The later time the shown text names, for `later_date_shown`. */
  mention?: DateMention;
}

/**
 * Longest title, snippet and text kept from a result: whatever reaches the model comes from
 * these bounded fields.
 */
const MAX_TITLE_CHARS = 500;
const MAX_SNIPPET_CHARS = 4_000;
const MAX_TEXT_CHARS = 60_000;

/** A result cut to the lengths the context uses. */
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

/** Why the result's dates keep it from the model under `cutoff`, or null when they do not. */
export function datesVerdict(result: ResearchResult, cutoff: Date): LeakVerdict | null {
  const limit = cutoff.getTime();
  if (result.publishedAt === null && result.firstSeenAt === null) return { reason: "no_date" };
  if (result.publishedAt !== null && !(result.publishedAt.getTime() <= limit)) {
    return { reason: "published_after_cutoff" };
  }
  if (result.firstSeenAt !== null && !(result.firstSeenAt.getTime() <= limit)) {
    return { reason: "first_seen_after_cutoff" };
  }
  // Trusted text is trusted only as of when Sibyl saw it.
  if (result.trust === "trusted" && result.firstSeenAt === null) return { reason: "no_date" };
  return null;
}

/**
 * Why `shown`, the exact text the model would read for `result` (see rendered-source.ts), must
 * not reach it under `cutoff`, or null when it may. A date-only cutoff is the first instant of
 * its day, so a time named is later when it starts at or after the cutoff: the as-of day itself
 * counts as later unless the cutoff has a time later in that day. Relative and yearless forms
 * are read against the result's own date.
 */
export function shownVerdict(
  result: ResearchResult,
  shown: string,
  cutoff: Date,
): LeakVerdict | null {
  if (result.trust === "trusted") return null;
  const documentDate = result.publishedAt ?? result.firstSeenAt ?? cutoff;
  // The address is also read decoded: %20 is a space to whoever reads it.
  const mention =
    laterMention(shown, documentDate, cutoff) ??
    laterMention(decodedUrl(result.url), documentDate, cutoff);
  return mention ? { reason: "later_date_shown", mention } : null;
}
