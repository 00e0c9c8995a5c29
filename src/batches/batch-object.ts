import type { Static } from "@sinclair/typebox";
import type { Selectable } from "kysely";
import type { BatchesTable, BatchStatus } from "../db/schema.js";
import { nanosToUsd } from "../util/money.js";
import type {
  BatchErrorSchema,
  BatchListSchema,
  BatchObjectSchema,
} from "./batch-object-schema.js";

export type BatchError = Static<typeof BatchErrorSchema>;
export type BatchObject = Static<typeof BatchObjectSchema>;
export type BatchList = Static<typeof BatchListSchema>;

export type BatchRow = Omit<
  Selectable<BatchesTable>,
  "seq" | "lease_owner" | "lease_until" | "api_key_id"
>;

/** Counts and token sums of a batch's lines. */
export interface LineTally {
  completed: number;
  failed: number;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  reasoningTokens: number;
}

export const TERMINAL_STATUSES: readonly BatchStatus[] = [
  "failed",
  "completed",
  "expired",
  "cancelled",
];

export function isTerminal(status: BatchStatus): boolean {
  return TERMINAL_STATUSES.includes(status);
}

/** The public object; a running batch reports its lines' live tally, a finished one its own. */
export function toBatchObject(
  row: BatchRow,
  live: LineTally | null,
  costNanos: number,
): BatchObject {
  const tally: LineTally = live ?? {
    completed: row.request_completed,
    failed: row.request_failed,
    inputTokens: row.input_tokens,
    outputTokens: row.output_tokens,
    cachedTokens: row.cached_tokens,
    reasoningTokens: row.reasoning_tokens,
  };
  return {
    id: row.id,
    object: "batch",
    endpoint: "/v1/chat/completions",
    errors: row.errors ? { object: "list", data: JSON.parse(row.errors) as BatchError[] } : null,
    input_file_id: row.input_file_id,
    completion_window: "24h",
    status: row.status,
    output_file_id: row.output_file_id,
    error_file_id: row.error_file_id,
    created_at: row.created_at,
    in_progress_at: row.in_progress_at,
    expires_at: row.expires_at,
    finalizing_at: row.finalizing_at,
    completed_at: row.completed_at,
    failed_at: row.failed_at,
    expired_at: row.expired_at,
    cancelling_at: row.cancelling_at,
    cancelled_at: row.cancelled_at,
    request_counts: { total: row.request_total, completed: tally.completed, failed: tally.failed },
    metadata: row.metadata ? (JSON.parse(row.metadata) as Record<string, string>) : null,
    model: row.model,
    usage: {
      input_tokens: tally.inputTokens,
      output_tokens: tally.outputTokens,
      total_tokens: tally.inputTokens + tally.outputTokens,
      input_tokens_details: { cached_tokens: tally.cachedTokens },
      output_tokens_details: { reasoning_tokens: tally.reasoningTokens },
    },
    cost_usd: nanosToUsd(costNanos),
  };
}
