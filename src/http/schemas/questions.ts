import { Type } from "@sinclair/typebox";
import { ANSWER_TYPES } from "../../forecast/types.js";
import { Nullable } from "./common.js";
import { DateInput, ScoreReportSchema } from "./scores.js";

const QUESTION_ID = {
  minLength: 1,
  maxLength: 256,
  pattern: "^[^\\u0000-\\u001f\\u007f]+$",
};

/** Text a row can hold: PostgreSQL refuses the NUL character. */
const NO_NUL = "^[^\\u0000]*$";

const AnswerTypeSchema = Type.Union(
  [...ANSWER_TYPES, ...ANSWER_TYPES.map((type) => type.toUpperCase())].map((value) =>
    Type.Literal(value),
  ),
  { description: "binary, multiple_choice, continuous, continuous_value_only or free_response" },
);

const OutcomeSchema = Nullable(
  Type.Union([Type.Number(), Type.String()], {
    description:
      "binary: 0 or 1; multiple_choice: the option's letter; continuous and continuous_value_only: the number; free_response: the text. Null while open or annulled",
  }),
);

const StatusSchema = Type.Union(
  [Type.Literal("open"), Type.Literal("resolved"), Type.Literal("annulled")],
  { description: "open until resolved; annulled questions are not scored" },
);

const questionFields = {
  id: Type.String({ description: "your id of the question, unique in the organization" }),
  object: Type.Literal("question"),
  text: Nullable(Type.String()),
  answer_type: Type.String(),
  options: Nullable(Type.Record(Type.String(), Type.String())),
  resolution_date: Nullable(Type.Integer({ description: "when it is expected to resolve" })),
  source: Nullable(Type.String()),
  tags: Type.Array(Type.String()),
  status: StatusSchema,
  outcome: OutcomeSchema,
  resolved_at: Nullable(Type.Integer({ description: "when the outcome became known" })),
  created_at: Type.Integer(),
};

export const QuestionObjectSchema = Type.Object(questionFields, { $id: "QuestionObject" });

const AnswerValueSchema = Nullable(
  Type.Union(
    [
      Type.Number({ description: "binary probability, or continuous_value_only value" }),
      Type.Object({ mean: Type.Number(), standard_deviation: Type.Number() }),
      Type.Record(Type.String(), Type.Number(), { description: "multiple_choice" }),
      Type.String({ description: "free_response" }),
    ],
    { description: "the answer read from the reply; null when none could be read" },
  ),
);

export const ForecastObjectSchema = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal("forecast"),
    question_id: Type.String(),
    model: Type.String(),
    api_key_id: Nullable(Type.String()),
    answer_type: Type.String(),
    answer: AnswerValueSchema,
    raw_answer: Nullable(
      Type.Union([Type.Number(), Type.Record(Type.String(), Type.Number())], {
        description:
          "the model's own answer when a calibration map changed it (answer is what was returned, and what is scored)",
      }),
    ),
    calibration_id: Nullable(
      Type.String({ description: "the calibration applied to the answer; null when none was" }),
    ),
    prediction_date: Type.Integer({
      description: "the as-of moment: prediction_date, or when asked",
    }),
    request_id: Type.String({
      description: "the request's x-request-id; for a batch line, its output line's id",
    }),
    cost_usd: Type.Number(),
    created_at: Type.Integer(),
    scores: Nullable(
      Type.Object(
        {
          brier: Nullable(Type.Number()),
          log_score: Nullable(Type.Number()),
          crps: Nullable(Type.Number()),
          imputed: Type.Boolean({
            description: "the answer could not be read: scored as 0.5 (binary) or uniform",
          }),
        },
        { description: "set once the question resolves, for forecasts that count" },
      ),
    ),
  },
  { $id: "ForecastObject" },
);

const ResolutionObject = Type.Object({
  outcome: OutcomeSchema,
  annulled: Type.Boolean(),
  resolved_at: Type.Integer(),
  recorded_at: Type.Integer(),
  forced: Type.Boolean({ description: "it replaced an earlier resolution" }),
  recorded_by: Type.String({ description: "the admin key that resolved it, or cli" }),
});

export const QuestionDetailSchema = Type.Object(
  {
    ...questionFields,
    forecasts: Type.Array(Type.Ref(ForecastObjectSchema), {
      description: "the forecasts, earliest first (at most 1,000)",
    }),
    forecasts_truncated: Type.Boolean(),
    resolutions: Type.Array(ResolutionObject, {
      description: "every resolution given, earliest first; the last one is in force",
    }),
  },
  { $id: "QuestionDetail" },
);

export const QuestionListSchema = Type.Object(
  {
    object: Type.Literal("list"),
    data: Type.Array(Type.Ref(QuestionObjectSchema)),
    first_id: Nullable(Type.String()),
    last_id: Nullable(Type.String()),
    has_more: Type.Boolean(),
  },
  { $id: "QuestionList" },
);

export const QuestionCreateRequestSchema = Type.Object(
  {
    id: Type.String({ ...QUESTION_ID, description: "your id of the question" }),
    text: Type.Optional(Nullable(Type.String({ maxLength: 100_000, pattern: NO_NUL }))),
    answer_type: AnswerTypeSchema,
    options: Type.Optional(
      Nullable(
        Type.Record(Type.String(), Type.String(), {
          propertyNames: { pattern: "^[A-Z]$" },
          minProperties: 2,
          description: "multiple_choice: option letter → option text",
        }),
      ),
    ),
    resolution_date: Type.Optional(Nullable(DateInput("when the question is expected to resolve"))),
    source: Type.Optional(Nullable(Type.String({ maxLength: 256, pattern: NO_NUL }))),
    tags: Type.Optional(
      Nullable(
        Type.Array(Type.String({ minLength: 1, maxLength: 64, pattern: NO_NUL }), {
          maxItems: 32,
          description: "labels to group scores by",
        }),
      ),
    ),
  },
  { additionalProperties: false, $id: "QuestionCreateRequest" },
);

export const ResolutionRequestSchema = Type.Object(
  {
    outcome: Type.Optional(OutcomeSchema),
    annulled: Type.Optional(
      Nullable(Type.Boolean({ description: "the question will not resolve; nothing is scored" })),
    ),
    resolved_at: Type.Optional(Nullable(DateInput("when the outcome became known; default now"))),
    force: Type.Optional(
      Nullable(Type.Boolean({ description: "replace an earlier, different resolution" })),
    ),
  },
  { additionalProperties: false, $id: "ResolutionRequest" },
);

export const QuestionListQuerySchema = Type.Object({
  after: Type.Optional(
    Type.String({ ...QUESTION_ID, description: "id of the last question of the previous page" }),
  ),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  status: Type.Optional(StatusSchema),
  answer_type: Type.Optional(AnswerTypeSchema),
  source: Type.Optional(Type.String({ minLength: 1, maxLength: 256, pattern: NO_NUL })),
  tag: Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: NO_NUL })),
});

export const QuestionParams = Type.Object({ question_id: Type.String(QUESTION_ID) });

export const QUESTION_SCHEMAS = [
  ScoreReportSchema,
  QuestionObjectSchema,
  ForecastObjectSchema,
  QuestionDetailSchema,
  QuestionListSchema,
  QuestionCreateRequestSchema,
  ResolutionRequestSchema,
];
