import {
  ChatCompletionRequestSchema,
  ChatMessageSchema,
  CompletionRequestSchema,
  ResearchOptionsSchema,
} from "../../completions/schema.js";
import {
  BatchCreateRequestSchema,
  BatchListSchema,
  BatchObjectSchema,
  ExpirationPolicySchema,
} from "./batches.js";
import { ErrorResponse } from "./common.js";
import {
  ChatCompletionResponseSchema,
  CompletionResponseSchema,
  ResearchReportSchema,
  UsageSchema,
} from "./completions.js";
import { FileDeletedSchema, FileListSchema, FileObjectSchema } from "./files.js";
import { BalanceSchema, ModelListSchema, ModelObjectSchema } from "./models.js";

/** Schemas with an `$id`: added once at the root so `$ref`s resolve and become OpenAPI components. */
export const SHARED_SCHEMAS = [
  ErrorResponse,
  ModelObjectSchema,
  ModelListSchema,
  BalanceSchema,
  ChatMessageSchema,
  ResearchOptionsSchema,
  ChatCompletionRequestSchema,
  CompletionRequestSchema,
  UsageSchema,
  ResearchReportSchema,
  ChatCompletionResponseSchema,
  CompletionResponseSchema,
  FileObjectSchema,
  FileDeletedSchema,
  FileListSchema,
  ExpirationPolicySchema,
  BatchCreateRequestSchema,
  BatchObjectSchema,
  BatchListSchema,
];
