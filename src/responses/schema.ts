import { type Static, Type } from "@sinclair/typebox";
import { type ChatCompletionBody, ChatCompletionRequestSchema } from "../completions/schema.js";
import { Nullable } from "../util/nullable-schema.js";

/** Sibyl's extensions, validated exactly as in chat completions. */
const { answer_type, prediction_date, research, ensemble, question_id, calibration } =
  ChatCompletionRequestSchema.properties;

const InputContentPart = Type.Object({
  type: Type.String({
    description: "input_text or output_text; images, files and audio are not supported (400)",
  }),
  text: Type.Optional(Type.String()),
});

export const ResponseInputItemSchema = Type.Object(
  {
    type: Type.Optional(
      Type.String({
        description: "message (the default); other item kinds are not supported (400)",
      }),
    ),
    role: Type.Optional(
      Type.Union(
        [
          Type.Literal("user"),
          Type.Literal("assistant"),
          Type.Literal("system"),
          Type.Literal("developer"),
        ],
        { description: "author role; developer is read as system" },
      ),
    ),
    content: Type.Optional(
      Type.Union([Type.String(), Type.Array(InputContentPart)], {
        description: "text, or a list of text parts",
      }),
    ),
  },
  { $id: "ResponseInputItem" },
);

export const ResponseCreateRequestSchema = Type.Object(
  {
    model: Type.String({ minLength: 1, description: "model id" }),
    input: Type.Union(
      [Type.String(), Type.Array(Type.Ref(ResponseInputItemSchema), { minItems: 1 })],
      { description: "a user message, or a list of messages" },
    ),
    instructions: Type.Optional(
      Nullable(Type.String({ description: "sent to the model as a system message first" })),
    ),
    max_output_tokens: Type.Optional(
      Nullable(Type.Integer({ minimum: 1, description: "maximum tokens to generate" })),
    ),
    temperature: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 2 }))),
    top_p: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 1 }))),
    reasoning: Type.Optional(
      Nullable(
        Type.Object({
          effort: Type.Optional(
            Nullable(
              Type.Union([Type.Literal("low"), Type.Literal("medium"), Type.Literal("high")]),
            ),
          ),
          summary: Type.Optional(
            Nullable(
              Type.String({ description: "accepted; the model's own reasoning is returned" }),
            ),
          ),
          generate_summary: Type.Optional(Nullable(Type.String())),
        }),
      ),
    ),
    stream: Type.Optional(Nullable(Type.Boolean({ default: false }))),
    stream_options: Type.Optional(
      Nullable(Type.Object({ include_obfuscation: Type.Optional(Type.Boolean()) })),
    ),
    store: Type.Optional(
      Nullable(
        Type.Boolean({
          description:
            "accepted either way; nothing is stored, so a response cannot be retrieved later",
        }),
      ),
    ),
    metadata: Type.Optional(
      Nullable(
        Type.Record(Type.String(), Type.String({ maxLength: 512 }), {
          maxProperties: 16,
          propertyNames: { maxLength: 64 },
          description: "echoed in the response",
        }),
      ),
    ),
    text: Type.Optional(
      Nullable(
        Type.Object({
          format: Type.Optional(
            Nullable(
              Type.Object(
                { type: Type.String({ description: "only text is supported" }) },
                { additionalProperties: true },
              ),
            ),
          ),
          verbosity: Type.Optional(Nullable(Type.String())),
        }),
      ),
    ),
    tools: Type.Optional(
      Nullable(Type.Array(Type.Unknown(), { description: "not supported: must be empty" })),
    ),
    tool_choice: Type.Optional(
      Nullable(
        Type.Union([Type.String(), Type.Object({}, { additionalProperties: true })], {
          description: "none or auto",
        }),
      ),
    ),
    include: Type.Optional(
      Nullable(Type.Array(Type.String(), { description: "not supported: must be empty" })),
    ),
    top_logprobs: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 20 }))),
    truncation: Type.Optional(
      Nullable(Type.Union([Type.Literal("disabled"), Type.Literal("auto")])),
    ),
    background: Type.Optional(Nullable(Type.Boolean())),
    previous_response_id: Type.Optional(Nullable(Type.String())),
    conversation: Type.Optional(Nullable(Type.Unknown())),
    prompt: Type.Optional(Nullable(Type.Unknown())),
    parallel_tool_calls: Type.Optional(Nullable(Type.Boolean())),
    service_tier: Type.Optional(Nullable(Type.String())),
    user: Type.Optional(Type.String()),
    answer_type,
    prediction_date,
    research,
    ensemble,
    question_id,
    calibration,
  },
  { $id: "ResponseCreateRequest" },
);

export type ResponseInputItemBody = Static<typeof ResponseInputItemSchema>;

/** The body as validated (refs resolved by hand, since `Static` does not follow `$ref`). */
export type ResponseCreateBody = Omit<
  Static<typeof ResponseCreateRequestSchema>,
  "input" | "research"
> & {
  input: string | ResponseInputItemBody[];
  research?: ChatCompletionBody["research"];
};
