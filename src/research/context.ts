import { countTextTokens, truncateToTokens } from "../inference/tokens.js";
import type { SourceName } from "./configured-sources.js";
import type { LeakVerdict } from "./leak-guard.js";
import { renderedSource, shownFields } from "./rendered-source.js";
import type { ResearchResult, Trust } from "./source.js";

/** A result that passed the date checks, with the source that found it. */
export interface FoundResult {
  result: ResearchResult;
  source: SourceName;
  provider: string;
}

/** A source the model was given, as the reply reports it. */
export interface GivenSource {
  /** Its number in the message: the reply cites it as [number]. */
  number: number;
  url: string;
  /** As shown to the model: the title, or the address when there is none. */
  title: string;
  publishedAt: Date | null;
  firstSeenAt: Date | null;
  source: SourceName;
  provider: string;
  trust: Trust;
}

/** A result the guard kept out after reading it as it would have been shown. */
export interface ShownRejection {
  found: FoundResult;
  verdict: LeakVerdict;
}

/** The research as the model reads it: one system message, and what it lists. */
export interface ResearchContext {
  message: string;
  /** Tokens of the message, its chat-format overhead included. */
  tokens: number;
  sources: GivenSource[];
  rejected: ShownRejection[];
}

export interface ContextOptions {
  asOf: Date;
  cutoff: Date | null;
  tokenBudget: number;
  /** The leak guard over the exact text of one source's entry; null when it may be shown. */
  admit(result: ResearchResult, shown: string): LeakVerdict | null;
}

/** Role and delimiter tokens of one chat message (as in inference/tokens.ts). */
const MESSAGE_OVERHEAD_TOKENS = 4;
/** The most of the budget one source's excerpt may take, so several sources fit. */
const MAX_EXCERPT_TOKENS = 400;
/** An excerpt shorter than this says too little to be worth a source's place. */
const MIN_EXCERPT_TOKENS = 24;
/** Counting the parts of an entry apart may differ from counting it whole by a token or two. */
const SLACK_TOKENS = 4;

/**
 * Lists `found` (ranked and deduplicated) as numbered sources, as many as fit in the budget.
 * Each entry is built as it will stand in the message and the guard reads that very string; an
 * entry it refuses is left out whole. The sources returned are exactly those the message lists.
 */
export function researchContext(
  found: readonly FoundResult[],
  options: ContextOptions,
): ResearchContext {
  const head = heading(options.asOf, options.cutoff, found.length > 0);
  let used = MESSAGE_OVERHEAD_TOKENS + countTextTokens(head) + SLACK_TOKENS;
  const entries: string[] = [];
  const sources: GivenSource[] = [];
  const rejected: ShownRejection[] = [];
  for (const item of found) {
    const number = entries.length + 1;
    const fields = shownFields(item.result);
    const labelTokens =
      countTextTokens(renderedSource(number, item.result, fields, "")) + SLACK_TOKENS;
    const room = Math.min(MAX_EXCERPT_TOKENS, options.tokenBudget - used - labelTokens);
    if (room < MIN_EXCERPT_TOKENS) break;
    const excerpt = truncateToTokens(fields.excerpt, room).text.trim();
    const entry = renderedSource(number, item.result, fields, excerpt);
    const verdict = options.admit(item.result, entry);
    if (verdict) {
      rejected.push({ found: item, verdict });
      continue;
    }
    used += countTextTokens(entry) + SLACK_TOKENS;
    entries.push(entry);
    sources.push({
      number,
      url: item.result.url,
      title: fields.title,
      publishedAt: item.result.publishedAt,
      firstSeenAt: item.result.firstSeenAt,
      source: item.source,
      provider: item.provider,
      trust: item.result.trust,
    });
  }
  // The parts were counted apart: the whole is checked, and trimmed in the rare case it is over.
  for (;;) {
    const message = compose(head, entries, options);
    const tokens = MESSAGE_OVERHEAD_TOKENS + countTextTokens(message);
    if (tokens <= options.tokenBudget || entries.length === 0) {
      return { message, tokens, sources, rejected };
    }
    entries.pop();
    sources.pop();
  }
}

function compose(head: string, entries: string[], options: ContextOptions): string {
  if (entries.length === 0) return heading(options.asOf, options.cutoff, false);
  return `${head}\n\n${entries.join("\n\n")}`;
}

/** States what the guard guarantees, and nothing more. */
function heading(asOf: Date, cutoff: Date | null, found: boolean): string {
  if (!cutoff) {
    const day = asOf.toISOString().slice(0, 10);
    if (!found)
      return `Research for this question was run on ${day}. It found no relevant sources.`;
    return `Research results for this question, gathered on ${day}. Each source is numbered; cite the numbers of the sources your answer relies on, like [1].`;
  }
  const when = instant(cutoff);
  if (!found) {
    return `Research for this question was run as of ${when}. It found no relevant sources dated at or before that moment.`;
  }
  return `Research results for this question, as of ${when}. Sources published or first seen after that moment were left out, and so was any source not archived from this service's own news feeds that mentions a later date; text from those feeds may mention dates scheduled after it (plans known then, not outcomes). Each source is numbered; cite the numbers of the sources your answer relies on, like [1].`;
}

/** A date alone when the moment is midnight, else the minute, in UTC. */
function instant(date: Date): string {
  const iso = date.toISOString();
  return iso.slice(11, 16) === "00:00" && iso.slice(17, 23) === "00.000"
    ? iso.slice(0, 10)
    : `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}
