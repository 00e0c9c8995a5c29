/** The parts of the API's objects a backtest reads. */

export interface ModelInfo {
  id: string;
  /** ISO date of the model's training cutoff, where the endpoint declares one. */
  knowledge_cutoff?: string | null;
  /** The organization that owns (trained or serves) the model. */
  owned_by?: string | null;
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

export interface BatchInfo {
  id: string;
  status: BatchStatus;
  input_file_id: string;
  output_file_id: string | null;
  error_file_id: string | null;
  request_counts: { total: number; completed: number; failed: number } | null;
  metadata: Record<string, string> | null;
  errors: { data: { code: string | null; message: string | null; line: number | null }[] } | null;
}

export interface BatchPage {
  data: BatchInfo[];
  has_more: boolean;
  last_id: string | null;
}

export const TERMINAL_BATCH_STATUSES: readonly BatchStatus[] = [
  "completed",
  "failed",
  "expired",
  "cancelled",
];
