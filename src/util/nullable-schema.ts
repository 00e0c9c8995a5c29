import { type TSchema, Type } from "@sinclair/typebox";

/** A schema that also admits null (OpenAPI 3.1: `anyOf` with `type: null`). */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
