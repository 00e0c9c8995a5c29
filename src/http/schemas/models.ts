import { Type } from "@sinclair/typebox";

export const ModelObjectSchema = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal("model"),
    created: Type.Integer(),
    owned_by: Type.String(),
    name: Type.String(),
    description: Type.String(),
    context_length: Type.Integer(),
    max_completion_tokens: Type.Integer(),
    pricing: Type.Record(Type.String(), Type.String(), {
      description: "USD per token as decimal strings: `prompt`, `completion`.",
    }),
    knowledge_cutoff: Type.Optional(
      Type.String({
        description:
          "The end of the model's training data (a date or an RFC 3339 date-time), where the operator declares it. Absent otherwise.",
      }),
    ),
  },
  { $id: "ModelObject" },
);

export const ModelListSchema = Type.Object(
  { object: Type.Literal("list"), data: Type.Array(Type.Ref(ModelObjectSchema)) },
  { $id: "ModelListResponse" },
);

export const BalanceSchema = Type.Object(
  { balance_dollars: Type.Number() },
  { $id: "BalanceResponse" },
);
