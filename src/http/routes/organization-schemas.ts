import { type Static, Type } from "@sinclair/typebox";
import { Nullable } from "../schemas/common.js";
import { OrganizationCostsPageSchema } from "./organization-cost-schemas.js";

/** PostgreSQL text cannot hold a NUL character. */
const NO_NUL = "^[^\\u0000]*$";

const Timestamp = Nullable(Type.Integer({ description: "Unix seconds" }));

const KeyScopeSchema = Type.Union([Type.Literal("admin"), Type.Literal("inference")], {
  description: "`admin` keys also manage the organization's keys; `inference` keys cannot.",
});

const apiKeyProperties = {
  object: Type.Literal("organization.api_key"),
  id: Type.String(),
  name: Nullable(Type.String()),
  redacted_value: Type.String({ description: "The key's visible prefix; never the key" }),
  scope: KeyScopeSchema,
  created_at: Type.Integer(),
  last_used_at: Nullable(
    Type.Integer({ description: "Unix seconds, to the minute: written at most once a minute" }),
  ),
  expires_at: Timestamp,
  revoked_at: Timestamp,
  spend_limit_usd: Nullable(
    Type.Number({ description: "The most this key's requests may cost, all together" }),
  ),
};

export const OrganizationApiKeySchema = Type.Object(apiKeyProperties, {
  $id: "OrganizationApiKey",
});

export const OrganizationApiKeyCreatedSchema = Type.Object(
  {
    ...apiKeyProperties,
    value: Type.String({ description: "The new key, shown this once: only a digest is kept" }),
  },
  { $id: "OrganizationApiKeyCreated" },
);

export const OrganizationApiKeyListSchema = Type.Object(
  {
    object: Type.Literal("list"),
    data: Type.Array(Type.Ref(OrganizationApiKeySchema)),
    first_id: Nullable(Type.String()),
    last_id: Nullable(Type.String()),
    has_more: Type.Boolean(),
  },
  { $id: "OrganizationApiKeyList" },
);

export const OrganizationApiKeyDeletedSchema = Type.Object(
  {
    object: Type.Literal("organization.api_key.deleted"),
    id: Type.String(),
    deleted: Type.Literal(true),
  },
  { $id: "OrganizationApiKeyDeleted" },
);

const keyTermProperties = {
  name: Type.Optional(Nullable(Type.String({ maxLength: 256, pattern: NO_NUL }))),
  expires_at: Type.Optional(
    Nullable(
      Type.Integer({
        minimum: 0,
        maximum: 253_402_300_799,
        description: "Unix seconds; the key is refused from then on",
      }),
    ),
  ),
  spend_limit_usd: Type.Optional(
    Nullable(
      Type.Number({
        exclusiveMinimum: 0,
        maximum: 1_000_000_000,
        description: "Requests that could take the key's spending past this are refused (402)",
      }),
    ),
  ),
};

export const ApiKeyCreateRequestSchema = Type.Object(
  { ...keyTermProperties, scope: Type.Optional(KeyScopeSchema) },
  { additionalProperties: false, $id: "ApiKeyCreateRequest" },
);

export const ApiKeyUpdateRequestSchema = Type.Object(keyTermProperties, {
  additionalProperties: false,
  $id: "ApiKeyUpdateRequest",
  description: "Fields left out stay as they are; null removes the name, expiry or spend limit.",
});

export type ApiKeyUpdateBody = Static<typeof ApiKeyUpdateRequestSchema>;

export type ApiKeyCreateBody = Static<typeof ApiKeyCreateRequestSchema>;

export const ApiKeyListQuerySchema = Type.Object({
  after: Type.Optional(Type.String({ description: "id of the last key of the previous page" })),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  order: Type.Union([Type.Literal("asc"), Type.Literal("desc")], { default: "asc" }),
});

export const ApiKeyParams = Type.Object({ key_id: Type.String({ minLength: 1 }) });

const UsageResultSchema = Type.Object({
  object: Type.Literal("organization.usage.completions.result"),
  num_model_requests: Type.Integer({ minimum: 0 }),
  input_tokens: Type.Integer({ minimum: 0 }),
  output_tokens: Type.Integer({ minimum: 0 }),
  cost_usd: Type.Number({ minimum: 0 }),
  model: Nullable(Type.String({ description: "Set when grouped by model" })),
  api_key_id: Nullable(
    Type.String({ description: "Set when grouped by key (null there for batch lines)" }),
  ),
});

export const OrganizationUsagePageSchema = Type.Object(
  {
    object: Type.Literal("page"),
    data: Type.Array(
      Type.Object({
        object: Type.Literal("bucket"),
        start_time: Type.Integer(),
        end_time: Type.Integer(),
        results: Type.Array(UsageResultSchema),
      }),
    ),
    has_more: Type.Boolean(),
    next_page: Nullable(Type.String()),
  },
  { $id: "OrganizationUsagePage" },
);

const Identifiers = (description: string) =>
  Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 256, pattern: NO_NUL }), {
      maxItems: 100,
      description,
    }),
  );

export const UsageQuerySchema = Type.Object({
  start_time: Type.Integer({ minimum: 0, description: "Unix seconds, inclusive" }),
  end_time: Type.Optional(
    Type.Integer({ minimum: 0, description: "Unix seconds, exclusive; default now" }),
  ),
  bucket_width: Type.Literal("1d", { default: "1d" }),
  group_by: Type.Optional(
    Type.Array(Type.Union([Type.Literal("model"), Type.Literal("api_key_id")]), { maxItems: 2 }),
  ),
  models: Identifiers("Only these models"),
  api_key_ids: Identifiers("Only these keys"),
  limit: Type.Integer({ minimum: 1, maximum: 31, default: 7, description: "Days per page" }),
  page: Type.Optional(Type.String({ description: "`next_page` of the previous page" })),
});

const LedgerKindSchema = Type.Union([
  Type.Literal("topup"),
  Type.Literal("charge"),
  Type.Literal("refund"),
  Type.Literal("adjustment"),
]);

export const OrganizationLedgerEntrySchema = Type.Object(
  {
    object: Type.Literal("organization.ledger_entry"),
    id: Type.String({
      description: "Opaque: `le_` and 22 base62 characters, unrelated to the order of entries",
    }),
    kind: LedgerKindSchema,
    amount_usd: Type.Number({ description: "Positive for credits, negative for charges" }),
    balance_after_usd: Type.Number(),
    reference: Nullable(Type.String()),
    memo: Nullable(Type.String()),
    created_at: Type.Integer(),
  },
  { $id: "OrganizationLedgerEntry" },
);

export const OrganizationLedgerListSchema = Type.Object(
  {
    object: Type.Literal("list"),
    data: Type.Array(Type.Ref(OrganizationLedgerEntrySchema)),
    first_id: Nullable(Type.String()),
    last_id: Nullable(Type.String()),
    has_more: Type.Boolean(),
  },
  { $id: "OrganizationLedgerList" },
);

export const LedgerQuerySchema = Type.Object({
  after: Type.Optional(
    Type.String({ description: "id of the last entry of the previous page (its `last_id`)" }),
  ),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  kind: Type.Optional(LedgerKindSchema),
});

/** Added once at the root, like the shared schemas, so they become OpenAPI components. */
export const ORGANIZATION_SCHEMAS = [
  OrganizationApiKeySchema,
  OrganizationApiKeyCreatedSchema,
  OrganizationApiKeyListSchema,
  OrganizationApiKeyDeletedSchema,
  ApiKeyCreateRequestSchema,
  ApiKeyUpdateRequestSchema,
  OrganizationUsagePageSchema,
  OrganizationLedgerEntrySchema,
  OrganizationLedgerListSchema,
  OrganizationCostsPageSchema,
];
