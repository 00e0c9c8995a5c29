import { BacktestError } from "../errors.js";
import type { EvalAnswerType, EvalItem, Outcome, QuestionSet, Resolution } from "../types.js";
import { itemKey } from "./forecastbench.js";
import { buildPrompt } from "./prompt.js";
import { SkipTally } from "./skip-tally.js";

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
  const tally = new SkipTally();
  const items: EvalItem[] = [];
  const resolutions: Resolution[] = [];
  const keys = new Set<string>();
  for (const [index, line] of content.split("\n").entries()) {
    if (line.trim() === "") continue;
    const where = `${name} line ${index + 1}`;
    const row = jsonObject(line, where);
    const item = rowItem(row, { name, lineNumber: index + 1 }, tally);
    if (item === null) continue;
    if (keys.has(item.key)) throw new BacktestError(`${where}: duplicate id "${item.questionId}"`);
    keys.add(item.key);
    items.push(item);
    const resolution = rowResolution(row, item, where);
    if (resolution !== null) resolutions.push(resolution);
  }
  const { skipped, notes } = tally;
  return { format: "sibyl_jsonl", name, items, resolutions, skipped, notes };
}

function jsonObject(line: string, where: string): Json {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    parsed = null;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new BacktestError(`${where}: not a JSON object`);
  }
  return parsed as Json;
}

/** The row's question as an item; null when its kind is not scored (counted in the tally). */
function rowItem(
  row: Json,
  { name, lineNumber }: { name: string; lineNumber: number },
  tally: SkipTally,
): EvalItem | null {
  const line = `line ${lineNumber}`;
  const where = `${name} ${line}`;
  const question = typeof row.question === "string" ? row.question.trim() : "";
  const answerType = answerTypeOf(row.answer_type);
  const predictionDate = typeof row.prediction_date === "string" ? row.prediction_date : "";
  if (question === "") throw new BacktestError(`${where}: question is required`);
  if (!DATE_PREFIX.test(predictionDate) || Number.isNaN(Date.parse(predictionDate))) {
    throw new BacktestError(
      `${where}: prediction_date must be an ISO 8601 date, got ${JSON.stringify(row.prediction_date)}`,
    );
  }
  if (answerType === null) {
    tally.unsupported(`${line}: answer_type ${JSON.stringify(row.answer_type)} is not scored`);
    return null;
  }
  const options = Array.isArray(row.options)
    ? row.options.filter((option): option is string => typeof option === "string")
    : null;
  if (
    answerType === "multiple_choice" &&
    (options === null || options.length < 2 || options.length > 26)
  ) {
    tally.unsupported(`${line}: multiple choice needs 2 to 26 options`);
    return null;
  }
  const id = row.id === undefined ? `q${lineNumber}` : String(row.id);
  const source = typeof row.source === "string" && row.source !== "" ? row.source : "sibyl";
  const resolutionDate =
    typeof row.resolution_date === "string" && DATE_PREFIX.test(row.resolution_date)
      ? row.resolution_date
      : null;
  const choiceOptions = answerType === "multiple_choice" ? options : null;
  return {
    key: itemKey(source, id, resolutionDate),
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
  };
}

/** The row's outcome as the item's resolution; null when it has none yet. */
function rowResolution(row: Json, item: EvalItem, where: string): Resolution | null {
  if (row.outcome === undefined || row.outcome === null) return null;
  const outcome = outcomeOf(item.answerType, row.outcome, item.options);
  if (outcome === null) {
    throw new BacktestError(
      `${where}: outcome ${JSON.stringify(row.outcome)} does not fit answer_type ${item.answerType}`,
    );
  }
  return { itemKey: item.key, resolutionDate: item.resolutionDate, outcome, resolved: true };
}
