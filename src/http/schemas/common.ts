import { type TSchema, Type } from "@sinclair/typebox";

export const ErrorResponse = Type.Object(
  {
    error: Type.Object({
      message: Type.String(),
      type: Type.String(),
      param: Type.Union([Type.String(), Type.Null()]),
      code: Type.Union([Type.String(), Type.Null()]),
    }),
    detail: Type.Union([
      Type.String(),
      Type.Array(
        Type.Object({
          loc: Type.Array(Type.Union([Type.String(), Type.Integer()])),
          msg: Type.String(),
          type: Type.String(),
          input: Type.Unknown(),
          ctx: Type.Optional(Type.Object({}, { additionalProperties: true })),
        }),
      ),
    ]),
  },
  {
    $id: "ErrorResponse",
    description: "Every error: OpenAI-style `error` plus FastAPI-style `detail`.",
  },
);

export { Nullable } from "../../util/nullable-schema.js";

/** The error responses every authenticated route can give. */
export function withErrors<R extends Record<number, TSchema>>(responses: R) {
  const error = Type.Ref(ErrorResponse);
  return { ...responses, 401: error, 422: error, 429: error };
}
