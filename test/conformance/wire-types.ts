/**
 * The drift check between the wire schemas and the types written against them, run by `tsc`
 * (`npm run lint`, CI): a line here stops compiling when a server type sends what its schema does
 * not document, or when the dashboard or `sibyl eval` reads a field the schema no longer promises.
 * Shapes whose types are `Static` of their schema (usage, research, files, batches) need no line.
 */
import type { Static } from "@sinclair/typebox";
import type { BatchListSchema, BatchObjectSchema } from "../../src/batches/batch-object-schema.js";
import type {
  ChatCompletionResponseSchema,
  CompletionResponseSchema,
} from "../../src/completions/response-schema.js";
import type {
  ChatCompletionResponse,
  TextCompletionResponse,
} from "../../src/completions/types.js";
import type { BatchInfo, BatchPage, ModelInfo } from "../../src/evaluation/client/api-types.js";
import type {
  OrganizationApiKeyCreatedSchema,
  OrganizationApiKeySchema,
  OrganizationLedgerEntrySchema,
  OrganizationUsagePageSchema,
} from "../../src/http/routes/organization-schemas.js";
import type { ResponseObjectSchema, ResponseUsageSchema } from "../../src/http/routes/responses.js";
import type { BalanceSchema, ModelObjectSchema } from "../../src/http/schemas/models.js";
import type { ResponseObject, ResponseUsage } from "../../src/responses/types.js";
import type {
  ApiKey,
  Balance,
  CreatedApiKey,
  LedgerEntry,
  Model,
  UsagePage,
} from "../../web/src/api/types.js";

/** True when every value of `Sent` is a `Read`: what one side sends, the other accepts. */
type Fits<Sent, Read> = [Sent] extends [Read] ? true : false;
/** `Fits`, and `Sent` has no top-level field the schema leaves out. */
type Documented<Sent, Schema> =
  Fits<Sent, Schema> extends true
    ? [Exclude<keyof Sent, keyof Schema>] extends [never]
      ? true
      : false
    : false;
type Holds<Check extends true> = Check;

/** The server sends only what its schema documents. */
export type ServerTypesFitTheirSchemas = [
  Holds<Documented<ChatCompletionResponse, Static<typeof ChatCompletionResponseSchema>>>,
  Holds<Documented<TextCompletionResponse, Static<typeof CompletionResponseSchema>>>,
  Holds<Documented<ResponseObject, Static<typeof ResponseObjectSchema>>>,
  Holds<Documented<ResponseUsage, Static<typeof ResponseUsageSchema>>>,
];

/** The dashboard reads only what the schemas promise. */
export type DashboardTypesFitTheSchemas = [
  Holds<Fits<Static<typeof BalanceSchema>, Balance>>,
  Holds<Fits<Static<typeof ModelObjectSchema>, Model>>,
  Holds<Fits<Static<typeof OrganizationApiKeySchema>, ApiKey>>,
  Holds<Fits<Static<typeof OrganizationApiKeyCreatedSchema>, CreatedApiKey>>,
  Holds<Fits<Static<typeof OrganizationUsagePageSchema>, UsagePage>>,
  Holds<Fits<Static<typeof OrganizationLedgerEntrySchema>, LedgerEntry>>,
];

/** `sibyl eval` reads only what the schemas promise. */
export type EvaluationClientTypesFitTheSchemas = [
  Holds<Fits<Static<typeof ModelObjectSchema>, ModelInfo>>,
  Holds<Fits<Static<typeof BatchObjectSchema>, BatchInfo>>,
  Holds<Fits<Static<typeof BatchListSchema>, BatchPage>>,
];
