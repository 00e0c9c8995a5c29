import { type Static, Type } from "@sinclair/typebox";
import { ANSWER_TYPES } from "../forecast/types.js";
import { Nullable } from "../util/nullable-schema.js";
import { EnsembleOptionsSchema } from "./ensemble/schema.js";

export const ChatMessageSchema = Type.Object(
  {
    role: Type.Union([Type.Literal("system"), Type.Literal("user"), Type.Literal("assistant")], {
      description: "author role",
    }),
    content: Type.String({ description: "message text" }),
  },
  { $id: "ChatMessage" },
);

export const ResearchSourceNames = ["web_search", "news_search"] as const;
export type ResearchSourceName = (typeof ResearchSourceNames)[number];

export const ResearchOptionsSchema = Type.Object(
  {
    sources: Type.Optional(
      Type.Array(Type.Union(ResearchSourceNames.map((name) => Type.Literal(name))), {
        uniqueItems: true,
        description: "research providers to use; each is billed separately",
      }),
    ),
  },
  { additionalProperties: false, $id: "ResearchOptions" },
);

/** An ISO 8601 date-time with no zone designator, such as `2025-06-01T12:00:00`. */
export const NAIVE_DATE_TIME = "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?$";

/** Both letter cases of every answer type, plus `auto`. */
const ANSWER_TYPE_VALUES = [
  ...ANSWER_TYPES,
  ...ANSWER_TYPES.map((type) => type.toUpperCase()),
  "auto",
  "AUTO",
];

/**
 * Most choices one request may ask for, `n` times the number of prompts: each is a generation
 * upstream and a reply built and sent here (2,000 prompts with `n` 64 blocked the server for
 * seconds). OpenAI caps `n` at 128; larger jobs belong in a batch.
 */
export const MAX_CHOICES = 128;

/** Fields shared by chat and text completions, Sibyl's extensions among them. */
const commonFields = {
  model: Type.String({ minLength: 1, description: "model id" }),
  temperature: Type.Optional(
    Nullable(
      Type.Number({ minimum: 0, maximum: 2, default: 0.6, description: "sampling temperature" }),
    ),
  ),
  max_tokens: Type.Optional(
    Nullable(Type.Integer({ minimum: 1, description: "maximum tokens to generate" })),
  ),
  max_completion_tokens: Type.Optional(
    Nullable(
      Type.Integer({
        minimum: 1,
        description: "newer OpenAI name of max_tokens; used when max_tokens is absent",
      }),
    ),
  ),
  top_p: Type.Optional(
    Nullable(Type.Number({ minimum: 0, maximum: 1, description: "nucleus sampling" })),
  ),
  top_k: Type.Optional(
    Nullable(
      Type.Integer({ minimum: -1, description: "number of top tokens considered (-1: all)" }),
    ),
  ),
  min_p: Type.Optional(
    Nullable(Type.Number({ minimum: 0, maximum: 1, description: "minimum token probability" })),
  ),
  reasoning_effort: Type.Optional(
    Nullable(Type.Union([Type.Literal("low"), Type.Literal("medium"), Type.Literal("high")])),
  ),
  stream: Type.Optional(Nullable(Type.Boolean({ default: false }))),
  stream_options: Type.Optional(
    Nullable(Type.Object({ include_usage: Type.Optional(Nullable(Type.Boolean())) })),
  ),
  n: Type.Optional(
    Nullable(
      Type.Integer({ minimum: 1, maximum: 64, default: 1, description: "number of choices" }),
    ),
  ),
  stop: Type.Optional(
    Nullable(
      Type.Union([
        Type.String(),
        Type.Array(Type.String(), { maxItems: 4, description: "up to 4 stop sequences" }),
      ]),
    ),
  ),
  seed: Type.Optional(Nullable(Type.Integer())),
  research: Type.Optional(Nullable(Type.Union([Type.Boolean(), Type.Ref(ResearchOptionsSchema)]))),
  question_id: Type.Optional(
    Nullable(
      Type.String({
        minLength: 1,
        maxLength: 256,
        pattern: "^[^\\u0000-\\u001f\\u007f]+$",
        description:
          "Sibyl: your id of the question (unique in the organization); with answer_type, the forecast is recorded in the track record",
      }),
    ),
  ),
  calibration: Type.Optional(
    Nullable(
      Type.String({
        minLength: 1,
        maxLength: 64,
        pattern: "^(auto|cal_[A-Za-z0-9]+)$",
        description:
          "Sibyl: auto (the model's latest calibration) or a calibration id; with answer_type binary or multiple_choice, the answer tag carries the calibrated probability when the map improved out-of-sample Brier, and forecast.calibration the raw one",
      }),
    ),
  ),
  answer_type: Type.Optional(
    Nullable(
      Type.Union(
        ANSWER_TYPE_VALUES.map((value) => Type.Literal(value)),
        {
          description:
            "binary, multiple_choice, continuous, continuous_value_only, free_response or auto (either letter case)",
        },
      ),
    ),
  ),
};

export const ChatCompletionRequestSchema = Type.Object(
  {
    ...commonFields,
    messages: Type.Array(Type.Ref(ChatMessageSchema), { minItems: 1 }),
    prediction_date: Type.Optional(
      Nullable(
        Type.Union(
          [
            Type.String({ format: "date-time" }),
            Type.String({ format: "date" }),
            Type.String({ pattern: NAIVE_DATE_TIME, description: "without a zone: read as UTC" }),
          ],
          {
            description: "as-of date (ISO 8601): the model's today and the research cutoff",
          },
        ),
      ),
    ),
    ensemble: Type.Optional(Nullable(EnsembleOptionsSchema)),
  },
  { $id: "ChatCompletionRequest" },
);

export const CompletionRequestSchema = Type.Object(
  {
    ...commonFields,
    prompt: Type.Union([
      Type.String(),
      Type.Array(Type.String(), { minItems: 1, maxItems: MAX_CHOICES }),
    ]),
  },
  { $id: "CompletionRequest" },
);

/** Shapes as validated (refs resolved by hand, since `Static` does not follow `$ref`). */
export type ChatMessageBody = Static<typeof ChatMessageSchema>;
export type ResearchOptionsBody = Static<typeof ResearchOptionsSchema>;
type Resolve<T> = Omit<T, "messages" | "research"> & {
  research?: boolean | ResearchOptionsBody | null;
};
export type ChatCompletionBody = Resolve<Static<typeof ChatCompletionRequestSchema>> & {
  messages: ChatMessageBody[];
};
export type CompletionBody = Resolve<Static<typeof CompletionRequestSchema>>;
