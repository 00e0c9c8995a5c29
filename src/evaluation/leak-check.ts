import { laterMention } from "../research/dates/grammar.js";
import { decodedUrl, shownText } from "../research/shown-text.js";
import type { ForecastRecord } from "./results/records.js";
import type { Citation } from "./results/replies.js";
import type { EvalItem, Resolution } from "./types.js";

/**
 * What a backtest checks so that its scores mean something: every request the endpoint ran
 * carried an as-of date no later than its question's due date and an answer type; no outcome
 * scored was already known on the as-of date; no model was trained past the as-of dates; and,
 * with research, no cited source is dated after them.
 */

const DAY_MS = 86_400_000;
const MAX_EXAMPLES = 20;
const URL_DATE =
  /(?:^|[/_-])((?:19|20)\d{2})[/_-]?(0[1-9]|1[0-2])[/_-]?(0[1-9]|[12]\d|3[01])(?=[/_.-]|$)/;

/** Milliseconds of an ISO date or date-time; a date alone, or a time without zone, is UTC. */
export function instantOf(text: string): number {
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return Date.parse(`${text}T00:00:00Z`);
  if (/T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(text)) return Date.parse(`${text}Z`);
  return Date.parse(text);
}

/** The end of the day a date names, or the instant of a date-time. */
function latestInstantOf(text: string): number {
  return /^\d{4}-\d{2}-\d{2}$/.test(text) ? instantOf(text) + DAY_MS - 1 : instantOf(text);
}

/** The UTC day of a date or date-time; text that is no date keeps its first ten characters. */
function dayOf(text: string): string {
  const at = instantOf(text);
  return Number.isNaN(at) ? text.slice(0, 10) : new Date(at).toISOString().slice(0, 10);
}

export interface RequestAudit {
  /** Input lines the endpoint holds for this run (all models). */
  lines: number;
  missing_prediction_date: number;
  missing_answer_type: number;
  prediction_date_after_due_date: number;
  unknown_custom_id: number;
  examples: string[];
}

export function emptyRequestAudit(): RequestAudit {
  return {
    lines: 0,
    missing_prediction_date: 0,
    missing_answer_type: 0,
    prediction_date_after_due_date: 0,
    unknown_custom_id: 0,
    examples: [],
  };
}

/** Checks a batch input file as the endpoint stores it, line by line. */
export function auditRequests(
  audit: RequestAudit,
  content: string,
  items: Map<string, EvalItem>,
): void {
  const problem = (text: string) => {
    if (audit.examples.length < MAX_EXAMPLES) audit.examples.push(text);
  };
  for (const line of content.split("\n")) {
    if (line.trim() === "") continue;
    audit.lines += 1;
    let parsed: {
      custom_id?: unknown;
      body?: { prediction_date?: unknown; answer_type?: unknown };
    };
    try {
      parsed = JSON.parse(line) as typeof parsed;
    } catch {
      audit.unknown_custom_id += 1;
      problem("a line that is not JSON");
      continue;
    }
    const id = typeof parsed.custom_id === "string" ? parsed.custom_id : "";
    const item = items.get(id);
    if (!item) {
      audit.unknown_custom_id += 1;
      problem(`unknown custom_id ${JSON.stringify(parsed.custom_id)}`);
      continue;
    }
    const date = parsed.body?.prediction_date;
    if (typeof parsed.body?.answer_type !== "string" || parsed.body.answer_type === "") {
      audit.missing_answer_type += 1;
      problem(`${id}: no answer_type`);
    }
    if (typeof date !== "string" || Number.isNaN(instantOf(date))) {
      audit.missing_prediction_date += 1;
      problem(`${id}: no prediction_date`);
    } else if (instantOf(date) > latestInstantOf(item.dueDate)) {
      audit.prediction_date_after_due_date += 1;
      problem(`${id}: prediction_date ${date} is after the due date ${item.dueDate}`);
    }
  }
}

export const requestsPass = (audit: RequestAudit, expectedLines: number): boolean =>
  audit.lines === expectedLines &&
  audit.missing_prediction_date === 0 &&
  audit.missing_answer_type === 0 &&
  audit.prediction_date_after_due_date === 0 &&
  audit.unknown_custom_id === 0;

/** Resolutions dated before their question's as-of date: known then, so left out of scores. */
export function resolvedBeforePrediction(
  resolutions: Resolution[],
  items: Map<string, EvalItem>,
): Resolution[] {
  return resolutions.filter((resolution) => {
    const item = items.get(resolution.itemKey);
    return (
      item !== undefined &&
      resolution.resolutionDate !== null &&
      dayOf(resolution.resolutionDate) < dayOf(item.predictionDate)
    );
  });
}

export interface CutoffWarning {
  model: string;
  knowledge_cutoff: string;
  /** Requests whose as-of date is before the cutoff: the model may know how they turned out. */
  requests_before_cutoff: number;
  earliest_prediction_date: string;
}

export function knowledgeCutoffWarnings(
  cutoffs: Map<string, string>,
  items: EvalItem[],
): CutoffWarning[] {
  if (items.length === 0) return [];
  const earliest = items.reduce((first, item) =>
    instantOf(item.predictionDate) < instantOf(first.predictionDate) ? item : first,
  );
  return [...cutoffs.entries()].flatMap(([model, cutoff]) => {
    const cutoffAt = instantOf(cutoff);
    if (Number.isNaN(cutoffAt)) return [];
    const before = items.filter((item) => instantOf(item.predictionDate) < cutoffAt).length;
    return before === 0
      ? []
      : [
          {
            model,
            knowledge_cutoff: cutoff,
            requests_before_cutoff: before,
            earliest_prediction_date: earliest.predictionDate,
          },
        ];
  });
}

export interface CitationAudit {
  citations: number;
  /** Citations with a date: given by the endpoint, or written in the URL's path. */
  dated: number;
  /** Dated after the as-of date of the request that cited them. The target is 0. */
  leaks: number;
  examples: { model: string; key: string; url: string; date: string; prediction_date: string }[];
}

function citationDate(url: string, dates: string[]): string | null {
  const given = dates.find((date) => !Number.isNaN(instantOf(date)));
  if (given) return given;
  const match = URL_DATE.exec(url);
  return match ? `${match[1]}-${match[2]}-${match[3]}` : null;
}

/**
 * Every source's dates at or before the as-of date of the request that was given it, and, unless
 * the endpoint calls its text trusted, no later time named in its title or address (read by the
 * same grammar as Sibyl's guard). A leak fails the run.
 */
export function auditCitations(records: ForecastRecord[]): CitationAudit {
  const audit: CitationAudit = { citations: 0, dated: 0, leaks: 0, examples: [] };
  for (const record of records) {
    const asOf = instantOf(record.item.predictionDate);
    for (const citation of record.citations) {
      audit.citations += 1;
      const date = citationDate(citation.url, citation.dates);
      if (date !== null) audit.dated += 1;
      const later =
        citation.dates.find((given) => dayOf(given) > dayOf(record.item.predictionDate)) ??
        (date !== null && dayOf(date) > dayOf(record.item.predictionDate) ? date : null) ??
        (citation.trust === "trusted" || Number.isNaN(asOf)
          ? null
          : shownLaterTime(citation, new Date(asOf)));
      if (later === null) continue;
      audit.leaks += 1;
      if (audit.examples.length < MAX_EXAMPLES) {
        audit.examples.push({
          model: record.model,
          key: record.item.key,
          url: citation.url,
          date: later,
          prediction_date: record.item.predictionDate,
        });
      }
    }
  }
  return audit;
}

/** A later time the source's title or address names, as the guard reads them. */
function shownLaterTime(citation: Citation, asOf: Date): string | null {
  const dated = citation.dates.map(instantOf).find((time) => !Number.isNaN(time));
  const documentDate = dated === undefined ? asOf : new Date(dated);
  const text = `${citation.title ?? ""}\n${citation.url}\n${decodedUrl(citation.url)}`;
  return laterMention(shownText(text), documentDate, asOf)?.text ?? null;
}
