import { Type } from "@sinclair/typebox";
import { Nullable } from "../util/nullable-schema.js";
import { EnsembleResultSchema } from "./ensemble/schema.js";

/**
 * The response shapes of chat and text completions as they are sent: these schemas document
 * them in /openapi.json and, through `Static`, are the types the pipeline builds
 * (completions/types.ts), the dashboard reads (web/src/api/types.ts) and the drift check holds
 * to (test/conformance/wire-types.ts).
 */

export const UsageSchema = Type.Object(
  {
    prompt_tokens: Type.Integer(),
    completion_tokens: Type.Integer(),
    total_tokens: Type.Integer(),
    cost_usd: Type.Number({ description: "inference plus research and classification" }),
    inference_cost_usd: Type.Number(),
    research_cost_usd: Type.Optional(Type.Number({ description: "present when research ran" })),
    classification_cost_usd: Type.Optional(
      Type.Number({ description: "present when answer_type was auto" }),
    ),
    completion_tokens_details: Type.Optional(Type.Object({ reasoning_tokens: Type.Integer() })),
  },
  { $id: "Usage" },
);

export const UrlCitationAnnotationSchema = Type.Object({
  type: Type.Literal("url_citation"),
  url_citation: Type.Object({
    url: Type.String(),
    title: Type.String(),
    start_index: Type.Integer({ description: "first code point of the citation in the content" }),
    end_index: Type.Integer({ description: "code point after the citation in the content" }),
  }),
});

/** The `research` extension: what the model was given, and what was kept from it. */
export const ResearchReportSchema = Type.Object(
  {
    as_of: Nullable(Type.String({ description: "the as-of cutoff; null without prediction_date" })),
    sources: Type.Array(
      Type.Object({
        number: Type.Integer({ description: "the source's number in the research message: [n]" }),
        url: Type.String(),
        title: Type.String(),
        published_at: Nullable(Type.String()),
        first_seen_at: Nullable(Type.String()),
        source: Type.String({ description: "news_search or web_search" }),
        provider: Type.String(),
        trust: Type.Union([Type.Literal("trusted"), Type.Literal("untrusted")]),
      }),
    ),
    dropped: Type.Record(Type.String(), Type.Integer(), {
      description: "results not given to the model, by reason",
    }),
  },
  { $id: "ResearchReport" },
);

/** The `forecast` extension of a choice with answer_type: how its answer was read. */
export const CalibrationReportSchema = Type.Object(
  {
    id: Nullable(
      Type.String({
        description: "the calibration applied or considered; null when none was found",
      }),
    ),
    applied: Type.Boolean({ description: "the answer tag carries the calibrated probability" }),
    reason: Nullable(
      Type.String({
        description:
          "why the answer was kept as read: no_calibration (auto, and the model has none), not_improved (the map did not beat the raw forecasts out of sample), not_a_probability (a continuous or free-text answer), no_answer (none could be read)",
      }),
    ),
    raw_answer: Nullable(
      Type.Union([Type.Number(), Type.Record(Type.String(), Type.Number())], {
        description: "the answer as the model gave it: a probability, or one per option",
      }),
    ),
  },
  { description: "present when the request set calibration" },
);

export const ForecastReadingSchema = Type.Object(
  {
    answer_type: Type.String({ description: "the answer type the reply was read as" }),
    answer_status: Type.Union(
      [Type.Literal("extracted"), Type.Literal("repaired"), Type.Literal("failed")],
      {
        description:
          "extracted from the reply, repaired (asked for once more), or failed (no answer tags)",
      },
    ),
    read_by: Type.String({
      description:
        "the rule that produced the answer in the tags (answer_tag, label, revision, range_point, option_lines, structured, …; see docs/answers.md); when failed, the rule that found the reply states none (no_answer_stated, contradiction, invalid_figure, nothing_found, …)",
    }),
    calibration: Type.Optional(CalibrationReportSchema),
  },
  { description: "present when answer_type was set: how the answer was read" },
);

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
          refusal: Type.Null({ description: "OpenAI's refusal field: always null" }),
          thinking: Nullable(Type.String()),
          annotations: Type.Optional(Nullable(Type.Array(UrlCitationAnnotationSchema))),
        }),
        logprobs: Type.Null({ description: "always null: log probabilities are not returned" }),
        finish_reason: Nullable(Type.String()),
        forecast: Type.Optional(ForecastReadingSchema),
      }),
    ),
    usage: Type.Optional(Nullable(Type.Ref(UsageSchema))),
    ensemble: Type.Optional(EnsembleResultSchema),
    research: Type.Optional(Type.Ref(ResearchReportSchema)),
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
        logprobs: Type.Null({ description: "always null: log probabilities are not returned" }),
        finish_reason: Nullable(Type.String()),
        forecast: Type.Optional(ForecastReadingSchema),
      }),
    ),
    usage: Type.Optional(Nullable(Type.Ref(UsageSchema))),
  },
  { $id: "CompletionResponse" },
);
