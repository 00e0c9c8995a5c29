import { Type } from "@sinclair/typebox";

/** The path parameters of the routes about one batch. */
export const BatchParams = Type.Object({ batch_id: Type.String({ minLength: 1 }) });
