import { Type } from "@sinclair/typebox";
import { Nullable } from "./common.js";

const ENDPOINT = "/v1/chat/completions";

export const ExpirationPolicySchema = Type.Object(
  {
    anchor: Type.Literal("created_at"),
    seconds: Type.Integer({ minimum: 3600, maximum: 2_592_000 }),
  },
  { additionalProperties: false, $id: "ExpirationPolicy" },
);

const Metadata = Type.Record(Type.String(), Type.String({ maxLength: 512 }), {
  maxProperties: 16,
  propertyNames: { maxLength: 64 },
  description: "up to 16 pairs; keys at most 64 characters, values at most 512",
});

export const BatchCreateRequestSchema = Type.Object(
  {
    input_file_id: Type.String({ minLength: 1 }),
    endpoint: Type.Literal(ENDPOINT),
    completion_window: Type.Literal("24h"),
    metadata: Type.Optional(Nullable(Metadata)),
    output_expires_after: Type.Optional(Nullable(Type.Ref(ExpirationPolicySchema))),
  },
  { additionalProperties: false, $id: "BatchCreateRequest" },
);

const BatchErrorSchema = Type.Object({
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
    endpoint: Type.Literal(ENDPOINT),
    errors: Nullable(
      Type.Object({ object: Type.Literal("list"), data: Type.Array(BatchErrorSchema) }),
    ),
    input_file_id: Type.String(),
    completion_window: Type.Literal("24h"),
    status: Type.Union(
      [
        "validating",
        "failed",
        "in_progress",
        "finalizing",
        "completed",
        "expired",
        "cancelling",
        "cancelled",
      ].map((status) => Type.Literal(status)),
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

export const BatchListQuerySchema = Type.Object({
  after: Type.Optional(
    Nullable(Type.String({ description: "id of the last batch of the previous page" })),
  ),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
});
