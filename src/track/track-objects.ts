import type { Selectable } from "kysely";
import type {
  ForecastsTable,
  QuestionResolutionsTable,
  QuestionStatus,
  QuestionsTable,
} from "../db/schema.js";
import { nanosToUsd } from "../util/money.js";
import type { RecordedAnswer } from "./answer-value.js";
import type { Outcome } from "./outcome.js";

export type QuestionRow = Selectable<QuestionsTable>;
export type ForecastRow = Selectable<ForecastsTable>;
export type ResolutionRow = Selectable<QuestionResolutionsTable>;

/** The letters of the question's options, when it has them. */
export function optionLetters(question: QuestionRow): string[] | null {
  return question.options ? Object.keys(JSON.parse(question.options) as object).sort() : null;
}

export interface QuestionObject {
  id: string;
  object: "question";
  text: string | null;
  answer_type: string;
  options: Record<string, string> | null;
  resolution_date: number | null;
  source: string | null;
  tags: string[];
  status: QuestionStatus;
  outcome: Outcome | null;
  resolved_at: number | null;
  created_at: number;
}

export interface ForecastObject {
  id: string;
  object: "forecast";
  question_id: string;
  model: string;
  api_key_id: string | null;
  answer_type: string;
  /** What the request returned, calibrated when a map was applied: what the scores score. */
  answer: RecordedAnswer | null;
  /** The model's own probability or options' probabilities, when a calibration map changed them. */
  raw_answer: number | Record<string, number> | null;
  calibration_id: string | null;
  prediction_date: number;
  request_id: string;
  cost_usd: number;
  created_at: number;
  /** Null until the question resolves, and for forecasts that are not scored. */
  scores: {
    brier: number | null;
    log_score: number | null;
    crps: number | null;
    /** The answer could not be read and was scored as 0.5 (binary) or uniform. */
    imputed: boolean;
  } | null;
}

export interface ResolutionObject {
  outcome: Outcome | null;
  annulled: boolean;
  resolved_at: number;
  recorded_at: number;
  forced: boolean;
  recorded_by: string;
}

export interface QuestionDetail extends QuestionObject {
  forecasts: ForecastObject[];
  /** More forecasts than the object lists (the earliest are listed). */
  forecasts_truncated: boolean;
  resolutions: ResolutionObject[];
}

export interface QuestionList {
  object: "list";
  data: QuestionObject[];
  first_id: string | null;
  last_id: string | null;
  has_more: boolean;
}

const parsed = <T>(text: string | null): T | null =>
  text === null ? null : (JSON.parse(text) as T);

export function toQuestionObject(row: QuestionRow): QuestionObject {
  return {
    id: row.id,
    object: "question",
    text: row.text,
    answer_type: row.answer_type,
    options: parsed<Record<string, string>>(row.options),
    resolution_date: row.resolution_date === null ? null : Number(row.resolution_date),
    source: row.source,
    tags: parsed<string[]>(row.tags) ?? [],
    status: row.status,
    outcome: parsed<Outcome>(row.outcome),
    resolved_at: row.resolved_at === null ? null : Number(row.resolved_at),
    created_at: Number(row.created_at),
  };
}

export function toForecastObject(row: ForecastRow): ForecastObject {
  return {
    id: row.id,
    object: "forecast",
    question_id: row.question_id,
    model: row.model,
    api_key_id: row.api_key_id,
    answer_type: row.answer_type,
    answer: parsed<RecordedAnswer>(row.answer),
    raw_answer: parsed<number | Record<string, number>>(row.raw_answer),
    calibration_id: row.calibration_id,
    prediction_date: Number(row.prediction_date),
    request_id: row.request_id,
    cost_usd: nanosToUsd(Number(row.cost_nanos)),
    created_at: Number(row.created_at),
    scores:
      Number(row.scored) === 1
        ? {
            brier: nullableNumber(row.brier),
            log_score: nullableNumber(row.log_score),
            crps: nullableNumber(row.crps),
            imputed: Number(row.imputed) === 1,
          }
        : null,
  };
}

export function toResolutionObject(row: ResolutionRow): ResolutionObject {
  return {
    outcome: parsed<Outcome>(row.outcome),
    annulled: Number(row.annulled) === 1,
    resolved_at: Number(row.resolved_at),
    recorded_at: Number(row.recorded_at),
    forced: Number(row.forced) === 1,
    recorded_by: row.recorded_by,
  };
}

const nullableNumber = (value: number | null): number | null =>
  value === null ? null : Number(value);
