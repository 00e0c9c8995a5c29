import { Type } from "@sinclair/typebox";
import { EnsembleResultSchema } from "../../completions/ensemble/schema.js";
import { Nullable } from "./common.js";

export const UsageSchema = Type.Object(
  {
    prompt_tokens: Type.Integer(),
    completion_tokens: Type.Integer(),
    total_tokens: Type.Integer(),
    cost_usd: Type.Optional(Nullable(Type.Number())),
    inference_cost_usd: Type.Optional(Nullable(Type.Number())),
    research_cost_usd: Type.Optional(Nullable(Type.Number())),
    classification_cost_usd: Type.Optional(Nullable(Type.Number())),
    completion_tokens_details: Type.Optional(Type.Object({ reasoning_tokens: Type.Integer() })),
  },
  { $id: "Usage" },
);

const UrlCitationAnnotation = Type.Object({
  type: Type.Literal("url_citation"),
  url_citation: Type.Object({ url: Type.String(), title: Nullable(Type.String()) }),
});

export const ChatCompletionResponseSchema = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal("chat.completion"),
    created: Type.Integer(),
    model: Type.String(),
    choices: Type.Array(
      Type.Object({
        index: Type.Integer(),
        message: Type.Object({
          role: Type.String(),
          content: Type.String({
            description: "full reply, with the answer tags at its end when answer_type was set",
          }),
          thinking: Nullable(Type.String()),
          annotations: Type.Optional(Nullable(Type.Array(UrlCitationAnnotation))),
        }),
        finish_reason: Nullable(Type.String()),
      }),
    ),
    usage: Type.Optional(Nullable(Type.Ref(UsageSchema))),
    ensemble: Type.Optional(EnsembleResultSchema),
  },
  { $id: "ChatCompletionResponse" },
);

export const CompletionResponseSchema = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal("text_completion"),
    created: Type.Integer(),
    model: Type.String(),
    choices: Type.Array(
      Type.Object({
        index: Type.Integer(),
        text: Type.String(),
        finish_reason: Nullable(Type.String()),
      }),
    ),
    usage: Type.Optional(Nullable(Type.Ref(UsageSchema))),
  },
  { $id: "CompletionResponse" },
);
