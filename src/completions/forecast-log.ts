import type { Db } from "../db/database.js";
import type { AnswerType, OptionMap, RequestedAnswerType } from "../forecast/types.js";

/** A calibration map that changed a recorded answer, and the model's own answer before it. */
export interface AppliedCalibration {
  id: string;
  rawAnswer: number | Record<string, number>;
}

/** One forecast a request with a `question_id` made, as the track record keeps it. */
export interface ForecastEntry {
  organizationId: string;
  questionId: string;
  model: string;
  apiKeyId: string | null;
  answerType: AnswerType;
  /** The reply whose answer tag is the forecast (the first choice, or an ensemble's one). */
  content: string;
  /** The map that calibrated the answer in `content`; null when the answer is the model's own. */
  calibration: AppliedCalibration | null;
  /** The question as the request asked it, and its options: a first forecast registers it. */
  question: string;
  options: OptionMap | null;
  /** The as-of moment, Unix seconds: `prediction_date`, or when the request was made. */
  predictionDate: number;
  requestId: string;
  costNanos: number;
  createdAt: number;
}

/** Where the completion pipeline records forecasts; the track record implements it. */
export interface ForecastLog {
  /** Refuses, before any credit is held, a forecast its question cannot take. */
  admit(organizationId: string, questionId: string, requested: RequestedAnswerType): Promise<void>;
  /** Records within the caller's transaction (a batch line's charge): fails with it. */
  record(db: Db, entry: ForecastEntry): Promise<void>;
  /** Records once the request is charged; a failure is logged, the reply is still sent. */
  recordCharged(entry: ForecastEntry): Promise<void>;
}
