import { ErrorResponse } from "./common.js";
import { BalanceSchema, ModelListSchema, ModelObjectSchema } from "./models.js";

/** Schemas with an `$id`: added once at the root so `$ref`s resolve and become OpenAPI components. */
export const SHARED_SCHEMAS = [ErrorResponse, ModelObjectSchema, ModelListSchema, BalanceSchema];
