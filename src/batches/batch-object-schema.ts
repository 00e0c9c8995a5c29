import { Type } from "@sinclair/typebox";
import type { BatchStatus } from "../db/schema.js";
import { Nullable } from "../util/nullable-schema.js";

/** Each status once: a status added to `BatchStatus` and missing here does not compile. */
const STATUSES: Record<BatchStatus, true> = {
  validating: true,
  failed: true,
  in_progress: true,
  finalizing: true,
  completed: true,
  expired: true,
  cancelling: true,
  cancelled: true,
};

/*
 * The batch objects of the Batch API as they are sent: they document the routes in
 * /openapi.json, and `BatchObject` and `BatchList` (batch-object.ts) are their `Static` types.
 */

export const BatchErrorSchema = Type.Object({
  code: Nullable(Type.String()),
  message: Nullable(Type.String()),
  param: Nullable(Type.String()),
  line: Nullable(Type.Integer()),
});

const Timestamp = Nullable(Type.Integer());

export const BatchObjectSchema = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal("batch"),
    endpoint: Type.Literal("/v1/chat/completions"),
    errors: Nullable(
      Type.Object({ object: Type.Literal("list"), data: Type.Array(BatchErrorSchema) }),
    ),
    input_file_id: Type.String(),
    completion_window: Type.Literal("24h"),
    status: Type.Union(
      (Object.keys(STATUSES) as BatchStatus[]).map((status) => Type.Literal(status)),
    ),
    output_file_id: Nullable(Type.String()),
    error_file_id: Nullable(Type.String()),
    created_at: Type.Integer(),
    in_progress_at: Timestamp,
    expires_at: Timestamp,
    finalizing_at: Timestamp,
    completed_at: Timestamp,
    failed_at: Timestamp,
    expired_at: Timestamp,
    cancelling_at: Timestamp,
    cancelled_at: Timestamp,
    request_counts: Type.Object({
      total: Type.Integer({ minimum: 0 }),
      completed: Type.Integer({ minimum: 0 }),
      failed: Type.Integer({ minimum: 0 }),
    }),
    metadata: Nullable(Type.Record(Type.String(), Type.String())),
    model: Nullable(Type.String()),
    usage: Nullable(
      Type.Object({
        input_tokens: Type.Integer({ minimum: 0 }),
        output_tokens: Type.Integer({ minimum: 0 }),
        total_tokens: Type.Integer({ minimum: 0 }),
        input_tokens_details: Type.Object({ cached_tokens: Type.Integer({ minimum: 0 }) }),
        output_tokens_details: Type.Object({ reasoning_tokens: Type.Integer({ minimum: 0 }) }),
      }),
    ),
    cost_usd: Type.Number({
      minimum: 0,
      description:
        "Sibyl extension: what the batch's lines have been charged so far, in US dollars (research included, at the batch price). It grows while the batch runs; lines not run cost nothing.",
    }),
  },
  { $id: "BatchObject" },
);

export const BatchListSchema = Type.Object(
  {
    object: Type.Literal("list"),
    data: Type.Array(Type.Ref(BatchObjectSchema)),
    first_id: Nullable(Type.String()),
    last_id: Nullable(Type.String()),
    has_more: Type.Boolean(),
  },
  { $id: "BatchListResponse" },
);
