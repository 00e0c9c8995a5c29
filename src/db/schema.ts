import type { Generated } from "kysely";

/** Times are integer Unix seconds; money is integer nano-dollars (1e-9 USD). */
export interface OrganizationsTable {
  id: string;
  name: string;
  balance_nanos: number;
  created_at: number;
}

export interface ApiKeysTable {
  id: string;
  organization_id: string;
  key_hash: string;
  prefix: string;
  created_at: number;
  revoked_at: number | null;
  scope: Generated<KeyScope>;
  name: string | null;
  expires_at: number | null;
  last_used_at: number | null;
  /** Null: no limit. */
  spend_limit_nanos: number | null;
  /** Settled charges plus open holds; kept only for keys with a spend limit. */
  spent_nanos: Generated<number>;
}

/** `admin` keys also manage the organization's keys. */
export type KeyScope = "admin" | "inference";

export type LedgerKind = "topup" | "charge" | "refund" | "adjustment";

/** Append-only: rows are never updated or deleted. */
export interface LedgerEntriesTable {
  id: Generated<number>;
  organization_id: string;
  kind: LedgerKind;
  amount_nanos: number;
  balance_after_nanos: number;
  reference: string | null;
  memo: string | null;
  created_at: number;
}

export type ReservationStatus = "held" | "settled" | "released";
/** The hold of one piece of work, or a process's lease on credits its requests hold from. */
export type ReservationKind = "hold" | "lease";

export interface ReservationsTable {
  id: string;
  organization_id: string;
  amount_nanos: number;
  status: ReservationStatus;
  charged_nanos: number | null;
  reference: string | null;
  created_at: number;
  finished_at: number | null;
  /** The process whose work the hold pays for (see ProcessesTable). */
  owner: string | null;
  /** The key whose spend limit carries the hold; null when the key has none. */
  api_key_id: string | null;
  kind: Generated<ReservationKind>;
}

/** One settled request: what it used and what it cost, for the usage reports. */
export interface UsageRecordsTable {
  id: Generated<number>;
  organization_id: string;
  api_key_id: string | null;
  model: string;
  input_tokens: number;
  output_tokens: number;
  cost_nanos: number;
  created_at: number;
}

/** Live processes; a process whose heartbeat stops is dead, and its holds are returned. */
export interface ProcessesTable {
  id: string;
  role: string;
  started_at: number;
  heartbeat_at: number;
}

/** References that may be used once within a scope, enforced by the primary key. */
export interface SingleUseReferencesTable {
  scope: string;
  reference: string;
  created_at: number;
}

export interface RateLimitWindowsTable {
  organization_id: string;
  window_start: number;
  request_count: number;
}

/** `evaluation`: a backtest's summary and report, uploaded by `sibyl eval run`. */
export type FilePurpose = "batch" | "batch_output" | "evaluation";
export type FileStatus = "uploaded" | "processed" | "error";

export interface FilesTable {
  seq: Generated<number>;
  id: string;
  organization_id: string;
  purpose: FilePurpose;
  filename: string;
  bytes: number;
  status: FileStatus;
  status_details: string | null;
  created_at: number;
  expires_at: number | null;
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

/** `errors` and `metadata` are JSON text; `lease_*` guard validation and finalization work. */
export interface BatchesTable {
  seq: Generated<number>;
  id: string;
  organization_id: string;
  endpoint: string;
  input_file_id: string;
  completion_window: string;
  status: BatchStatus;
  output_file_id: string | null;
  error_file_id: string | null;
  errors: string | null;
  metadata: string | null;
  model: string | null;
  output_expires_after: number | null;
  created_at: number;
  expires_at: number;
  in_progress_at: number | null;
  finalizing_at: number | null;
  completed_at: number | null;
  failed_at: number | null;
  expired_at: number | null;
  cancelling_at: number | null;
  cancelled_at: number | null;
  request_total: Generated<number>;
  request_completed: Generated<number>;
  request_failed: Generated<number>;
  input_tokens: Generated<number>;
  output_tokens: Generated<number>;
  cached_tokens: Generated<number>;
  reasoning_tokens: Generated<number>;
  lease_owner: string | null;
  lease_until: number | null;
  /** The key that created the batch: its lines spend under it. Null for older batches. */
  api_key_id: string | null;
}

export type BatchLineStatus = "queued" | "running" | "succeeded" | "failed";

/** One request of a batch; `available_at` and `lease_until` are milliseconds. */
export interface BatchLinesTable {
  batch_id: string;
  line_number: number;
  request_id: string;
  custom_id: string;
  body: string;
  status: BatchLineStatus;
  attempts: Generated<number>;
  available_at: Generated<number>;
  lease_owner: string | null;
  lease_until: number | null;
  status_code: number | null;
  response_request_id: string | null;
  response_body: string | null;
  error_code: string | null;
  error_message: string | null;
  input_tokens: Generated<number>;
  output_tokens: Generated<number>;
  cached_tokens: Generated<number>;
  reasoning_tokens: Generated<number>;
  finished_at: number | null;
}

/** One-time dashboard sign-in links; only the SHA-256 of a link's token is kept. */
export interface DashboardLinksTable {
  token_hash: string;
  organization_id: string;
  created_at: number;
  expires_at: number;
  consumed_at: number | null;
  /** The key the exchange issued; null until the link is used. */
  api_key_id: string | null;
}

export interface Database {
  organizations: OrganizationsTable;
  api_keys: ApiKeysTable;
  ledger_entries: LedgerEntriesTable;
  reservations: ReservationsTable;
  processes: ProcessesTable;
  single_use_references: SingleUseReferencesTable;
  rate_limit_windows: RateLimitWindowsTable;
  files: FilesTable;
  batches: BatchesTable;
  batch_lines: BatchLinesTable;
  usage_records: UsageRecordsTable;
  dashboard_links: DashboardLinksTable;
  payment_redemptions: PaymentRedemptionsTable;
  unclaimed_payments: UnclaimedPaymentsTable;
  pending_payments: PendingPaymentsTable;
  refill_challenges: RefillChallengesTable;
  chain_scan_cursors: ChainScanCursorsTable;
  id_keys: IdKeysTable;
  questions: QuestionsTable;
  question_tags: QuestionTagsTable;
  question_resolutions: QuestionResolutionsTable;
  forecasts: ForecastsTable;
  calibrations: CalibrationsTable;
  score_totals: ScoreTotalsTable;
}

export type QuestionStatus = "open" | "resolved" | "annulled";

/** A question of the track record; `options`, `tags` and `outcome` are JSON text. */
export interface QuestionsTable {
  seq: Generated<number>;
  organization_id: string;
  id: string;
  text: string | null;
  answer_type: string;
  options: string | null;
  resolution_date: number | null;
  source: string | null;
  tags: string;
  status: QuestionStatus;
  outcome: string | null;
  resolved_at: number | null;
  created_at: number;
}

export interface QuestionTagsTable {
  organization_id: string;
  question_id: string;
  tag: string;
}

/** Every resolution a question was given, the latest one in force; `annulled`, `forced` 0/1. */
export interface QuestionResolutionsTable {
  seq: Generated<number>;
  organization_id: string;
  question_id: string;
  outcome: string | null;
  annulled: number;
  resolved_at: number;
  recorded_at: number;
  forced: number;
  /** The API key that resolved it, or `cli`. */
  recorded_by: string;
}

/** A forecast a request made on a question; scores are set while its question is resolved. */
export interface ForecastsTable {
  seq: Generated<number>;
  id: string;
  organization_id: string;
  question_id: string;
  model: string;
  api_key_id: string | null;
  answer_type: string;
  /**
   * JSON text of the answer the request returned (calibrated when a map was applied), which the
   * scores score; null when none could be read.
   */
  answer: string | null;
  /** JSON text of the model's own answer when a calibration map changed it; else null. */
  raw_answer: string | null;
  /** The calibration applied to the answer; null when none was. */
  calibration_id: string | null;
  prediction_date: number;
  request_id: string;
  cost_nanos: number;
  created_at: number;
  /** 1 while the forecast's scores count in reports. */
  scored: Generated<number>;
  /** 1 when the answer could not be read and was scored as 0.5 (binary) or uniform, as eval does. */
  imputed: Generated<number>;
  brier: number | null;
  log_score: number | null;
  crps: number | null;
  /** Binary forecasts: the probability and the outcome, for calibration. */
  probability: number | null;
  outcome_value: number | null;
  calibration_bin: number | null;
}

/**
 * Running sums of scored forecasts per group and day or month of prediction date, kept by
 * triggers on `forecasts` (migration 0021): what score reports add up.
 */
export interface ScoreTotalsTable {
  organization_id: string;
  group_kind: "model" | "api_key" | "tag";
  period: "day" | "month";
  /** Unix seconds of the UTC day's or month's start. */
  period_start: number;
  /** '' with grp_null 1 for forecasts made without an API key. */
  grp: string;
  grp_null: number;
  answer_type: string;
  /** -1 when the forecast has no calibration bin. */
  calibration_bin: number;
  n: number;
  imputed: number;
  brier: number;
  log_score: number;
  crps: number;
  probability: number;
  outcome_value: number;
}

/** A calibration map fitted on a model's resolved binary forecasts; JSON text in `parameters`. */
export interface CalibrationsTable {
  seq: Generated<number>;
  id: string;
  organization_id: string;
  model: string;
  method: string;
  parameters: string;
  n: number;
  folds: number;
  brier_before: number;
  brier_after: number;
  /** 1 when the map beat the raw forecasts out of sample: only then is it applied. */
  improved: number;
  /** JSON: each method tried and its cross-validated Brier score. */
  candidates: string;
  /** The backtest summary file it was fitted on; null: the organization's recorded forecasts. */
  evaluation_id: string | null;
  created_at: number;
}

/** What the key of `id_keys` that encrypts ledger entry numbers into public ids is filed under. */
export const LEDGER_ID_KEY_PURPOSE = "ledger_entries";

/** Secrets that turn row numbers into public ids, one per purpose, made by a migration. */
export interface IdKeysTable {
  purpose: string;
  /** 16 random bytes, in hex: an AES-128 key. */
  key_hex: string;
}

/** A credited payment, by the challenge it paid. */
export interface PaymentRedemptionsTable {
  challenge_id: string;
  reference: string;
  organization_id: string;
  amount_cents: number;
  /** The key issued to a new payer; null on a refill. */
  api_key_id: string | null;
  credential_hash: string;
  idempotency_key: string | null;
  redeemed_at: number;
}

/** A payment found by reconciliation, credited to an organization its payer has not claimed. */
export interface UnclaimedPaymentsTable {
  reference: string;
  /** What binds it to a challenge: the memo's challenge nonce, or the challenge id. */
  challenge_tag: string;
  organization_id: string;
  amount_cents: number;
  found_at: number;
  claimed_at: number | null;
}

/** A payment that was not final when presented (a broadcast without receipt, a card processing). */
/** A challenge issued to refill an organization (a paid route's 402, a top-up with X-API-Key). */
export interface RefillChallengesTable {
  challenge_id: string;
  rail_kind: string;
  /** What the rail's payments carry of the challenge (PaymentRail.challengeTag). */
  challenge_tag: string;
  organization_id: string;
  issued_at: number;
}

export interface PendingPaymentsTable {
  reference: string;
  challenge_id: string;
  refill_organization_id: string | null;
  amount_cents: number;
  created_at: number;
  finished_at: number | null;
}

export interface ChainScanCursorsTable {
  scope: string;
  next_block: number;
}
