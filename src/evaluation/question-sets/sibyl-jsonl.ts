import { BacktestError } from "../errors.js";
import type {
  EvalAnswerType,
  EvalItem,
  Outcome,
  QuestionSet,
  Resolution,
  SkippedCounts,
} from "../types.js";
import { itemKey } from "./forecastbench.js";
import { buildPrompt } from "./prompt.js";

/**
 * Sibyl's own question format, one JSON object a line:
 * `{"id", "question", "background", "answer_type", "options", "prediction_date",
 *   "resolution_date", "outcome", "source"}`. `question`, `answer_type` and `prediction_date` are
 * required; `options` (two or more) for multiple choice. `outcome`: for binary true/false, 1/0
 * or "yes"/"no"; for multiple choice the option's text, letter or index; for continuous a
 * number. A question without an outcome is asked but not scored.
 */

type Json = Record<string, unknown>;

const ANSWER_TYPES: readonly EvalAnswerType[] = ["binary", "multiple_choice", "continuous"];
const DATE_PREFIX = /^\d{4}-\d{2}-\d{2}/;
const MAX_NOTES = 5;

function answerTypeOf(value: unknown): EvalAnswerType | null {
  if (typeof value !== "string") return null;
  const lower = value.toLowerCase();
  return ANSWER_TYPES.find((type) => type === lower) ?? null;
}

function binaryOutcome(value: unknown): number | null {
  if (value === true || value === 1 || value === "1") return 1;
  if (value === false || value === 0 || value === "0") return 0;
  if (typeof value === "string") {
    const lower = value.trim().toLowerCase();
    if (lower === "yes" || lower === "true") return 1;
    if (lower === "no" || lower === "false") return 0;
  }
  return null;
}

function choiceOutcome(value: unknown, options: string[]): number | null {
  if (typeof value === "number") {
    return Number.isInteger(value) && value >= 0 && value < options.length ? value : null;
  }
  if (typeof value !== "string") return null;
  const byText = options.findIndex((option) => option.trim() === value.trim());
  if (byText !== -1) return byText;
  const letter = value.trim().toUpperCase();
  const byLetter = letter.length === 1 ? letter.charCodeAt(0) - 65 : -1;
  return byLetter >= 0 && byLetter < options.length ? byLetter : null;
}

function outcomeOf(type: EvalAnswerType, value: unknown, options: string[] | null): Outcome | null {
  switch (type) {
    case "binary": {
      const outcome = binaryOutcome(value);
      return outcome === null ? null : { type, value: outcome };
    }
    case "multiple_choice": {
      const index = options === null ? null : choiceOutcome(value, options);
      return index === null ? null : { type, index };
    }
    case "continuous":
      return typeof value === "number" && Number.isFinite(value) ? { type, value } : null;
  }
}

export function parseSibylJsonl(content: string, name: string): QuestionSet {
  const skipped: SkippedCounts = {
    combination: 0,
    combination_resolutions: 0,
    unsupported: 0,
    over_limit: 0,
  };
  const notes: string[] = [];
  const unsupported = (reason: string) => {
    skipped.unsupported += 1;
    if (notes.length < MAX_NOTES) notes.push(reason);
  };
  const items: EvalItem[] = [];
  const resolutions: Resolution[] = [];
  const keys = new Set<string>();

  for (const [index, line] of content.split("\n").entries()) {
    if (line.trim() === "") continue;
    const lineNumber = index + 1;
    let row: Json;
    try {
      const parsed: unknown = JSON.parse(line);
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
        throw new Error("not an object");
      }
      row = parsed as Json;
    } catch {
      throw new BacktestError(`${name} line ${lineNumber}: not a JSON object`);
    }
    const question = typeof row.question === "string" ? row.question.trim() : "";
    const answerType = answerTypeOf(row.answer_type);
    const predictionDate = typeof row.prediction_date === "string" ? row.prediction_date : "";
    if (question === "")
      throw new BacktestError(`${name} line ${lineNumber}: question is required`);
    if (!DATE_PREFIX.test(predictionDate) || Number.isNaN(Date.parse(predictionDate))) {
      throw new BacktestError(
        `${name} line ${lineNumber}: prediction_date must be an ISO 8601 date, got ${JSON.stringify(row.prediction_date)}`,
      );
    }
    if (answerType === null) {
      unsupported(
        `line ${lineNumber}: answer_type ${JSON.stringify(row.answer_type)} is not scored`,
      );
      continue;
    }
    const options = Array.isArray(row.options)
      ? row.options.filter((option): option is string => typeof option === "string")
      : null;
    if (
      answerType === "multiple_choice" &&
      (options === null || options.length < 2 || options.length > 26)
    ) {
      unsupported(`line ${lineNumber}: multiple choice needs 2 to 26 options`);
      continue;
    }
    const id = row.id === undefined ? `q${lineNumber}` : String(row.id);
    const source = typeof row.source === "string" && row.source !== "" ? row.source : "sibyl";
    const resolutionDate =
      typeof row.resolution_date === "string" && DATE_PREFIX.test(row.resolution_date)
        ? row.resolution_date
        : null;
    const key = itemKey(source, id, resolutionDate);
    if (keys.has(key)) throw new BacktestError(`${name} line ${lineNumber}: duplicate id "${id}"`);
    keys.add(key);
    const choiceOptions = answerType === "multiple_choice" ? options : null;
    items.push({
      key,
      questionId: id,
      source,
      answerType,
      prompt: buildPrompt({
        question,
        background: typeof row.background === "string" ? row.background : null,
        resolutionCriteria:
          typeof row.resolution_criteria === "string" ? row.resolution_criteria : null,
        options: choiceOptions,
        resolutionDate,
      }),
      predictionDate,
      dueDate: predictionDate,
      resolutionDate,
      options: choiceOptions,
      marketValue: null,
      forecastBench: null,
    });
    if (row.outcome === undefined || row.outcome === null) continue;
    const outcome = outcomeOf(answerType, row.outcome, choiceOptions);
    if (outcome === null) {
      throw new BacktestError(
        `${name} line ${lineNumber}: outcome ${JSON.stringify(row.outcome)} does not fit answer_type ${answerType}`,
      );
    }
    resolutions.push({ itemKey: key, resolutionDate, outcome, resolved: true });
  }
  return { format: "sibyl_jsonl", name, items, resolutions, skipped, notes };
}
