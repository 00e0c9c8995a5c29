import { itemKey } from "../evaluation/question-sets/forecastbench.js";
import type { ResolutionInput } from "./resolution-steps.js";

/** One resolution a file asks for: the question ids it may be filed under, most specific first. */
export interface FileResolution {
  /** Where it stands in the file, for messages: `line 3`, `resolutions[12]`. */
  at: string;
  questionIds: string[];
  input: ResolutionInput;
}

export interface ParsedResolutions {
  format: "sibyl_jsonl" | "forecastbench";
  resolutions: FileResolution[];
  /** Entries that are no resolution to apply, with why. */
  skipped: { at: string; reason: string }[];
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Reads a resolution file: a ForecastBench resolution set (one JSON document with `resolutions`)
 * or Sibyl's JSON Lines, one `{"question_id", "outcome" | "annulled", "resolved_at"}` a line.
 */
export function parseResolutionFile(content: string): ParsedResolutions {
  const document = wholeDocument(content);
  if (isObject(document) && Array.isArray(document.resolutions)) {
    return forecastBenchResolutions(document.resolutions);
  }
  return sibylResolutions(content);
}

function wholeDocument(content: string): unknown {
  try {
    return JSON.parse(content);
  } catch {
    return null;
  }
}

function sibylResolutions(content: string): ParsedResolutions {
  const parsed: ParsedResolutions = { format: "sibyl_jsonl", resolutions: [], skipped: [] };
  for (const [index, line] of content.split("\n").entries()) {
    if (line.trim() === "") continue;
    const at = `line ${index + 1}`;
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch {
      parsed.skipped.push({ at, reason: "not valid JSON" });
      continue;
    }
    if (!isObject(entry) || typeof entry.question_id !== "string" || entry.question_id === "") {
      parsed.skipped.push({ at, reason: "expected an object with a question_id string" });
      continue;
    }
    const resolvedAt = entry.resolved_at;
    if (resolvedAt != null && typeof resolvedAt !== "string" && typeof resolvedAt !== "number") {
      parsed.skipped.push({ at, reason: "resolved_at must be an ISO 8601 date or Unix seconds" });
      continue;
    }
    parsed.resolutions.push({
      at,
      questionIds: [entry.question_id],
      input: {
        outcome: entry.outcome,
        annulled: entry.annulled === true,
        ...(resolvedAt == null ? {} : { resolved_at: resolvedAt }),
      },
    });
  }
  return parsed;
}

/**
 * ForecastBench entries resolve the questions `sibyl eval` names `source/id@resolution_date`
 * (dataset questions, one per date) or `source/id` (markets, asked once). Entries still open
 * (`resolved: false`, a market price) and combinations are skipped.
 */
function forecastBenchResolutions(entries: unknown[]): ParsedResolutions {
  const parsed: ParsedResolutions = { format: "forecastbench", resolutions: [], skipped: [] };
  for (const [index, entry] of entries.entries()) {
    const at = `resolutions[${index}]`;
    if (!isObject(entry)) {
      parsed.skipped.push({ at, reason: "not an object" });
      continue;
    }
    if (Array.isArray(entry.id)) {
      parsed.skipped.push({ at, reason: "a combination question" });
      continue;
    }
    const { id, source, resolution_date: date, resolved_to: value } = entry;
    if (typeof id !== "string" || typeof source !== "string" || typeof date !== "string") {
      parsed.skipped.push({ at, reason: "lacks a string id, source or resolution_date" });
      continue;
    }
    if (entry.resolved !== true) {
      parsed.skipped.push({ at, reason: "not resolved yet" });
      continue;
    }
    parsed.resolutions.push({
      at,
      questionIds: [itemKey(source, id, date), itemKey(source, id, null)],
      input: { outcome: value, resolved_at: date },
    });
  }
  return parsed;
}
