import { BacktestError } from "../errors.js";
import type { EvalItem, QuestionSet, Resolution, SkippedCounts } from "../types.js";
import { buildPrompt } from "./prompt.js";
import { SkipTally } from "./skip-tally.js";

/**
 * ForecastBench question and resolution sets (forecastingresearch/forecastbench-datasets):
 * `{forecast_due_date, question_set, questions[]}` and `{forecast_due_date, question_set,
 * resolutions[]}`. Market questions (`resolution_dates: "N/A"`) get one forecast, scored at every
 * resolution date the resolution set lists for them; dataset questions carry
 * `{forecast_due_date}`/`{resolution_date}` placeholders and get one forecast per resolution
 * date. Combination questions (ids as lists, with a direction) are counted and left out.
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export function isForecastBenchQuestionSet(value: unknown): value is Json {
  return isObject(value) && Array.isArray(value.questions) && "forecast_due_date" in value;
}

function text(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

function dueDateOf(document: Json, what: string): string {
  const due = document.forecast_due_date;
  if (typeof due !== "string" || !DATE.test(due)) {
    throw new BacktestError(
      `${what}: forecast_due_date must be a date (YYYY-MM-DD), got ${JSON.stringify(due)}`,
    );
  }
  return due;
}

/** A market probability, or null when the freeze value is not one. */
function marketProbability(value: unknown): number | null {
  const number = typeof value === "number" ? value : Number(text(value) ?? Number.NaN);
  return Number.isFinite(number) && number >= 0 && number <= 1 ? number : null;
}

const fill = (template: string, dueDate: string, resolutionDate: string | null): string =>
  template
    .replaceAll("{forecast_due_date}", dueDate)
    .replaceAll("{resolution_date}", resolutionDate ?? "{resolution_date}");

export const itemKey = (source: string, id: string, resolutionDate: string | null): string =>
  resolutionDate === null ? `${source}/${id}` : `${source}/${id}@${resolutionDate}`;

export function parseForecastBench(questionSet: Json, resolutionSet: unknown | null): QuestionSet {
  const dueDate = dueDateOf(questionSet, "question set");
  const setName = text(questionSet.question_set) ?? `${dueDate}.json`;
  const tally = new SkipTally();
  const items: EvalItem[] = [];
  for (const [index, question] of (questionSet.questions as unknown[]).entries()) {
    items.push(...questionItems(question, index, { dueDate, setName }, tally));
  }
  const { skipped, notes } = tally;
  const resolutions =
    resolutionSet === null ? [] : parseResolutions(resolutionSet, dueDate, items, skipped);
  return { format: "forecastbench", name: setName, items, resolutions, skipped, notes };
}

/** What every item of a set shares. */
interface SetInfo {
  dueDate: string;
  setName: string;
}

/** One question's items, one per resolution date (a market has one, undated); none if skipped. */
function questionItems(
  question: unknown,
  index: number,
  { dueDate, setName }: SetInfo,
  tally: SkipTally,
): EvalItem[] {
  if (!isObject(question)) {
    tally.unsupported(`questions[${index}] is not an object`);
    return [];
  }
  if (Array.isArray(question.id) || Array.isArray(question.combination_of)) {
    tally.skipped.combination += 1;
    return [];
  }
  const id = text(question.id);
  const source = text(question.source);
  const body = text(question.question);
  if (!id || !source || !body) {
    tally.unsupported(`questions[${index}] lacks a string id, source or question`);
    return [];
  }
  const dates = question.resolution_dates;
  const resolutionDates: (string | null)[] = Array.isArray(dates)
    ? dates.filter((date): date is string => typeof date === "string" && DATE.test(date))
    : [null];
  if (resolutionDates.length === 0) {
    tally.unsupported(`${source}/${id} has no usable resolution_dates`);
    return [];
  }
  const isMarket = !Array.isArray(dates);
  return resolutionDates.map(
    (resolutionDate): EvalItem => ({
      key: itemKey(source, id, resolutionDate),
      questionId: id,
      source,
      answerType: "binary",
      prompt: buildPrompt({
        intro: text(question.source_intro),
        question: fill(body, dueDate, resolutionDate),
        resolutionCriteria: fill(text(question.resolution_criteria) ?? "", dueDate, resolutionDate),
        background: text(question.background),
        freeze: {
          explanation: text(question.freeze_datetime_value_explanation) ?? "",
          value: String(question.freeze_datetime_value ?? ""),
          at: text(question.freeze_datetime) ?? dueDate,
        },
        resolutionDate,
      }),
      predictionDate: dueDate,
      dueDate,
      resolutionDate,
      options: null,
      marketValue: isMarket ? marketProbability(question.freeze_datetime_value) : null,
      forecastBench: { questionSet: setName, forecastDueDate: dueDate },
    }),
  );
}

function parseResolutions(
  document: unknown,
  dueDate: string,
  items: EvalItem[],
  skipped: SkippedCounts,
): Resolution[] {
  if (!isObject(document) || !Array.isArray(document.resolutions)) {
    throw new BacktestError("resolution set: expected an object with a resolutions list");
  }
  const resolutionDue = dueDateOf(document, "resolution set");
  if (resolutionDue !== dueDate) {
    throw new BacktestError(
      `resolution set is for forecast due date ${resolutionDue}, the question set for ${dueDate}`,
    );
  }
  const byKey = new Map(items.map((item) => [item.key, item]));
  const resolutions: Resolution[] = [];
  for (const entry of document.resolutions as unknown[]) {
    if (!isObject(entry)) continue;
    if (Array.isArray(entry.id)) {
      skipped.combination_resolutions += 1;
      continue;
    }
    const id = text(entry.id);
    const source = text(entry.source);
    const date = text(entry.resolution_date);
    const value = entry.resolved_to;
    if (!id || !source || !date || typeof value !== "number" || !Number.isFinite(value)) continue;
    // Dataset questions are asked per date; a market question once, for all its dates.
    const item = byKey.get(itemKey(source, id, date)) ?? byKey.get(itemKey(source, id, null));
    if (!item) continue;
    resolutions.push({
      itemKey: item.key,
      resolutionDate: date,
      outcome: { type: "binary", value },
      resolved: entry.resolved === true,
    });
  }
  return resolutions;
}
