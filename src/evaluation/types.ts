/** The answer kinds a backtest can score. */
export type EvalAnswerType = "binary" | "multiple_choice" | "continuous";

/** One request to make per model: a question as of a date, for one resolution date. */
export interface EvalItem {
  /** Unique within a run; also the batch line's custom_id. */
  key: string;
  questionId: string;
  source: string;
  answerType: EvalAnswerType;
  /** The user message sent to the model. */
  prompt: string;
  /** The as-of date sent as `prediction_date` (ISO 8601). */
  predictionDate: string;
  /** The latest as-of date the question allows: the set's forecast due date, or its own date. */
  dueDate: string;
  /** The date the forecast is for; null for market questions (one forecast for every date). */
  resolutionDate: string | null;
  /** Multiple choice: the options, lettered A, B, C… in this order. */
  options: string[] | null;
  /** Market questions: the market's probability at the freeze date. */
  marketValue: number | null;
  /** Set for ForecastBench questions: what the submission file needs. */
  forecastBench: { questionSet: string; forecastDueDate: string } | null;
}

/** What happened: a probability-like 0–1 value, an option index, or a number. */
export type Outcome =
  | { type: "binary"; value: number }
  | { type: "multiple_choice"; index: number }
  | { type: "continuous"; value: number };

/** One outcome to score an item against. */
export interface Resolution {
  itemKey: string;
  resolutionDate: string | null;
  outcome: Outcome;
  /** False for a market still open, whose value is only the market's latest price. */
  resolved: boolean;
}

/** A parsed forecast. */
export type Forecast =
  | { type: "binary"; probability: number }
  | { type: "multiple_choice"; probabilities: number[] }
  | { type: "continuous"; mean: number; sd: number };

/** Counted questions a set held that this backtest does not ask. */
export interface SkippedCounts {
  /** ForecastBench combination questions (ids as lists, with a direction). */
  combination: number;
  /** Resolution entries of combination questions. */
  combination_resolutions: number;
  /** Questions of a kind or shape not supported, with the reason. */
  unsupported: number;
  /** Dropped by --limit. */
  over_limit: number;
}

export interface QuestionSet {
  format: "forecastbench" | "sibyl_jsonl";
  /** ForecastBench's `question_set` name, or the file's base name. */
  name: string;
  items: EvalItem[];
  resolutions: Resolution[];
  skipped: SkippedCounts;
  /** Reasons for unsupported questions, a few of each. */
  notes: string[];
}

export { AGGREGATES, type Aggregate } from "../forecast/aggregation/combine.js";
