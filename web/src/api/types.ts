/** Response shapes of the routes the dashboard calls (src/http/schemas, organization-schemas). */

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

export interface FileObject {
  id: string;
  bytes: number;
  created_at: number;
  filename: string;
  purpose: string;
  status?: string;
  expires_at?: number | null;
}

export type BatchStatus =
  | "validating"
  | "failed"
  | "in_progress"
  | "finalizing"
  | "completed"
  | "expired"
  | "cancelling"
  | "cancelled";

export interface Batch {
  id: string;
  status: BatchStatus;
  input_file_id: string;
  output_file_id?: string | null;
  error_file_id?: string | null;
  created_at: number;
  completed_at?: number | null;
  model?: string | null;
  request_counts?: { total: number; completed: number; failed: number };
  usage?: { input_tokens: number; output_tokens: number; total_tokens: number } | null;
  errors?: { data: { code: string | null; message: string | null; line: number | null }[] } | null;
  /** Sibyl's extension: what its lines have been charged so far. */
  cost_usd?: number;
}

export interface ChatCompletion {
  id: string;
  model: string;
  choices: { index: number; message: { content: string; thinking?: string | null } }[];
  usage?: {
    prompt_tokens: number;
    completion_tokens: number;
    total_tokens: number;
    cost_usd?: number | null;
  } | null;
}

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

export interface ModelScores {
  n: number;
  brier: number | null;
  log_score: number | null;
  parse_rate?: number | null;
  cost_usd?: number;
}

/** The parts of a backtest's summary.json the dashboard shows (src/evaluation/summary.ts). */
export interface EvaluationSummary {
  question_set: { name: string; questions: number; format?: string };
  run: { models: string[]; samples?: number; aggregate?: string };
  models: Record<string, ModelScores>;
  baselines?: Record<string, { n: number; brier: number | null; log_score: number | null }>;
  leak_check?: { ok: boolean };
  warnings?: string[];
  /** Added by `sibyl eval run` when it keeps the report on the server. */
  report_files?: { report_html?: string | null; calibration_svg?: string | null };
}
