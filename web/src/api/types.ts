/**
 * Response shapes of the routes the dashboard calls. Completions, files, batches, questions and
 * scores are the server's own schemas (imported as types only: nothing of the server enters the
 * bundle); the rest are checked against the server's by test/conformance/wire-types.ts.
 */
import type { Static } from "@sinclair/typebox";
import type { BatchObjectSchema } from "../../../src/batches/batch-object-schema.js";
import type { EnsembleResult, EnsembleSample } from "../../../src/completions/ensemble/schema.js";
import type {
  ChatCompletionResponseSchema,
  ResearchReportSchema,
  UrlCitationAnnotationSchema,
} from "../../../src/completions/response-schema.js";
import type { FileObjectSchema } from "../../../src/files/file-object-schema.js";
import type {
  QuestionDetailSchema,
  QuestionObjectSchema,
} from "../../../src/http/schemas/questions.js";
import type { ScoreReportSchema } from "../../../src/http/schemas/scores.js";

export interface Balance {
  balance_dollars: number;
}

export interface Model {
  id: string;
  name?: string;
  pricing?: Record<string, string>;
}

export interface List<T> {
  object: "list";
  data: T[];
  first_id?: string | null;
  last_id?: string | null;
  has_more?: boolean;
}

export type KeyScope = "admin" | "inference";

export interface ApiKey {
  id: string;
  name: string | null;
  redacted_value: string;
  scope: KeyScope;
  created_at: number;
  last_used_at: number | null;
  expires_at: number | null;
  revoked_at: number | null;
  spend_limit_usd: number | null;
}

export interface CreatedApiKey extends ApiKey {
  value: string;
}

/** A key's changes: fields left out stay, null removes. */
export interface KeyChanges {
  name?: string | null;
  expires_at?: number | null;
  spend_limit_usd?: number | null;
}

export interface NewKeyRequest {
  name: string | null;
  scope: KeyScope;
  expires_at: number | null;
  spend_limit_usd: number | null;
}

export interface UsageResult {
  num_model_requests: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  model: string | null;
  api_key_id: string | null;
}

export interface UsageBucket {
  start_time: number;
  end_time: number;
  results: UsageResult[];
}

export interface UsagePage {
  object: "page";
  data: UsageBucket[];
  has_more: boolean;
  next_page: string | null;
}

export type FileObject = Static<typeof FileObjectSchema>;
export type Batch = Static<typeof BatchObjectSchema>;
export type BatchStatus = Batch["status"];
export type UrlCitation = Static<typeof UrlCitationAnnotationSchema>;
/** Sibyl's `research` extension: every source given to the model, and what was dropped. */
export type ResearchReport = Static<typeof ResearchReportSchema>;
export type { EnsembleResult, EnsembleSample };
export type ChatCompletion = Static<typeof ChatCompletionResponseSchema>;
export type ScoreReport = Static<typeof ScoreReportSchema>;
export type ScoreGroup = ScoreReport["data"][number];
export type CalibrationBin = ScoreGroup["binary"]["calibration"][number];
export type Question = Static<typeof QuestionObjectSchema>;
export type QuestionDetail = Static<typeof QuestionDetailSchema>;

export type LedgerKind = "topup" | "charge" | "refund" | "adjustment";

export interface LedgerEntry {
  id: string;
  kind: LedgerKind;
  amount_usd: number;
  balance_after_usd: number;
  reference: string | null;
  memo: string | null;
  created_at: number;
}

export interface KindScore {
  brier: number | null;
  n: number;
}

/** The mean Brier over every binary case: `pooled_brier`, or `brier` in older summaries. */
export interface PooledBrier {
  pooled_brier?: number | null;
  brier?: number | null;
}

export interface ModelScores extends PooledBrier {
  /** Binary forecasts scored. */
  n: number;
  log_score: number | null;
  parse_rate?: number | null;
  raw_parse_rate?: number | null;
  re_asked?: number;
  cost_usd?: number;
  multiple_choice?: { n: number; brier: number | null; log_score: number | null };
  continuous?: { n: number; crps: number | null; scaled_crps?: number | null };
  forecastbench?: {
    dataset: KindScore;
    market: KindScore;
    overall: KindScore;
    imputation?: { overall_pct: number | null; over_cutoff: boolean };
    difficulty_adjusted?: {
      overall: number | null;
      brier_index: { overall: number | null };
    } | null;
  } | null;
}

export interface QuestionCitation {
  url: string;
  title: string | null;
  dates: string[];
}

export interface QuestionForecast {
  forecast: number | number[] | { mean: number; standard_deviation: number } | null;
  score: number | null;
  scaled_score?: number | null;
  imputed: boolean;
  reasoning: string | null;
  citations: QuestionCitation[];
}

/** One row of a backtest's per-question table (summary.json `questions`). */
export interface QuestionRow {
  key: string;
  id: string;
  source: string;
  answer_type: string;
  question: string;
  options: string[] | null;
  due_date: string;
  resolution_date: string | null;
  resolved: boolean;
  outcome: number;
  market_value: number | null;
  forecasts: Record<string, QuestionForecast>;
}

/** The parts of a backtest's summary.json the dashboard shows (src/evaluation/summary.ts). */
export interface EvaluationSummary {
  question_set: { name: string; questions: number; format?: string };
  run: { models: string[]; samples?: number; aggregate?: string; run_id?: string };
  models: Record<string, ModelScores>;
  baselines?: Record<string, PooledBrier & { n: number; log_score: number | null }>;
  leak_check?: { ok: boolean };
  warnings?: string[];
  questions?: QuestionRow[];
  /** Added by `sibyl eval run` when it keeps the report on the server. */
  report_files?: { report_html?: string | null; calibration_svg?: string | null };
}
