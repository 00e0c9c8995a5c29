import { Type } from "@sinclair/typebox";
import { Nullable } from "./common.js";

export { BatchListSchema, BatchObjectSchema } from "../../batches/batch-object-schema.js";

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

export const BatchListQuerySchema = Type.Object({
  after: Type.Optional(
    Nullable(Type.String({ description: "id of the last batch of the previous page" })),
  ),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
});
