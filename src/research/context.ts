import { countTextTokens, truncateToTokens } from "../inference/tokens.js";
import type { ResearchResult } from "./source.js";

/** A source the model was given, as the reply's annotations cite it. */
export interface Citation {
  url: string;
  title: string | null;
}

/** The research as the model reads it: one system message, and what it cites. */
export interface ResearchContext {
  message: string;
  /** Tokens of the message, its chat-format overhead included. */
  tokens: number;
  citations: Citation[];
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
 * Lists `results` (already ranked, deduplicated and passed by the leak guard) as numbered
 * sources with their title, date, address and an excerpt, as many as fit in `tokenBudget`.
 * The citations are exactly the sources the message lists.
 */
export function researchContext(
  results: readonly ResearchResult[],
  options: { asOf: Date; cutoff: Date | null; tokenBudget: number },
): ResearchContext {
  const head = heading(options.asOf, options.cutoff, results.length > 0);
  let used = MESSAGE_OVERHEAD_TOKENS + countTextTokens(head) + SLACK_TOKENS;
  const entries: string[] = [];
  const citations: Citation[] = [];
  for (const result of results) {
    const label = entryLabel(entries.length + 1, result);
    const labelTokens = countTextTokens(label) + SLACK_TOKENS;
    const room = Math.min(MAX_EXCERPT_TOKENS, options.tokenBudget - used - labelTokens);
    if (room < MIN_EXCERPT_TOKENS) break;
    const excerpt = truncateToTokens(excerptOf(result), room);
    const entry = excerpt.text === "" ? label : `${label}\n${excerpt.text}`;
    used += labelTokens + countTextTokens(excerpt.text);
    entries.push(entry);
    citations.push({ url: result.url, title: result.title });
  }
  // The parts were counted apart: the whole is checked, and trimmed in the rare case it is over.
  for (;;) {
    const message = entries.length > 0 ? `${head}\n\n${entries.join("\n\n")}` : head;
    const tokens = MESSAGE_OVERHEAD_TOKENS + countTextTokens(message);
    if (tokens <= options.tokenBudget || entries.length === 0) {
      return { message, tokens, citations };
    }
    entries.pop();
    citations.pop();
  }
}

function heading(asOf: Date, cutoff: Date | null, found: boolean): string {
  const when = cutoff
    ? `as of ${instant(cutoff)}: nothing published or first seen after that moment is included`
    : `on ${asOf.toISOString().slice(0, 10)}`;
  if (!found) return `Research for this question was run ${when}. It found no relevant sources.`;
  return `Research results for this question, gathered ${when}. Each source is numbered; cite the numbers of the sources your answer relies on.`;
}

/** A date alone when the moment is midnight, else the minute, in UTC. */
function instant(date: Date): string {
  const iso = date.toISOString();
  return iso.slice(11, 16) === "00:00" && iso.slice(17, 23) === "00.000"
    ? iso.slice(0, 10)
    : `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

function entryLabel(number: number, result: ResearchResult): string {
  const lines = [`[${number}] ${oneLine(result.title ?? result.url)}`];
  const date = result.publishedAt ?? result.firstSeenAt;
  const dated = date ? `Published: ${date.toISOString().slice(0, 10)}` : null;
  const byline = [dated, result.source ? `Source: ${oneLine(result.source)}` : null]
    .filter((part) => part !== null)
    .join(" · ");
  if (byline) lines.push(byline);
  lines.push(`URL: ${result.url}`);
  return lines.join("\n");
}

function excerptOf(result: ResearchResult): string {
  return oneLine(result.snippet ?? result.text ?? "");
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
