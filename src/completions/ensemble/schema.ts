import { type Static, Type } from "@sinclair/typebox";
import { AGGREGATES } from "../../forecast/aggregation/combine.js";

/**
 * Most samples one ensemble may ask for: each is a full generation, held and billed, so the hold
 * of a large ensemble grows quickly. Larger ensembles belong in a batch (`sibyl eval --samples`).
 */
export const MAX_ENSEMBLE_SAMPLES = 16;

export const EnsembleOptionsSchema = Type.Object(
  {
    samples: Type.Integer({
      minimum: 2,
      maximum: MAX_ENSEMBLE_SAMPLES,
      description: `how many times the model answers the question (2 to ${MAX_ENSEMBLE_SAMPLES}), each an upstream call of its own; billed as K calls: every call's prompt and completion tokens`,
    }),
    aggregate: Type.Optional(
      Type.Union(
        AGGREGATES.map((name) => Type.Literal(name)),
        {
          default: "median",
          description:
            "how the samples' answers are combined: median, mean, logit_mean (the mean in log-odds, for probabilities; a plain mean for quantities) or trimmed_mean (the mean without the lowest and highest tenth, at least one each side from three answers on)",
        },
      ),
    ),
  },
  {
    additionalProperties: false,
    description:
      "Asks the model several times, one upstream call per sample run side by side, and returns one choice whose answer tag holds the aggregate; the samples are in the reply's `ensemble`. Billed as K calls; a call that fails costs nothing and is left out, and when every call fails the request fails as a single call would. Needs an answer_type whose answers are numbers (binary, multiple_choice, continuous, continuous_value_only, or auto classified as one of them); n must be 1 and stream false.",
  },
);

const AnswerValueSchema = Type.Union(
  [
    Type.Number({ description: "binary probability, or continuous_value_only value" }),
    Type.Object(
      { mean: Type.Number(), standard_deviation: Type.Number() },
      { description: "continuous: a normal distribution" },
    ),
    Type.Record(Type.String(), Type.Number(), {
      description: "multiple_choice: option letter → probability",
    }),
  ],
  { description: "an answer as its answer tag states it" },
);

const EnsembleSampleSchema = Type.Object({
  index: Type.Integer(),
  content: Type.String({ description: "the sample's reply, without answer tags" }),
  thinking: Type.Union([Type.String(), Type.Null()]),
  finish_reason: Type.Union([Type.String(), Type.Null()]),
  answer: Type.Union([AnswerValueSchema, Type.Null()], {
    description: "the answer read from the reply; null when none could be read",
  }),
  answer_status: Type.Union(
    [Type.Literal("extracted"), Type.Literal("repaired"), Type.Literal("failed")],
    {
      description:
        "extracted from the reply, repaired (asked for once more with a short prompt), or failed (left out of the aggregate)",
    },
  ),
});

export const EnsembleResultSchema = Type.Object(
  {
    aggregate: Type.Union(AGGREGATES.map((name) => Type.Literal(name))),
    answer_type: Type.String({ description: "the answer type the samples were read as" }),
    status: Type.Union([Type.Literal("aggregated"), Type.Literal("no_answers")], {
      description:
        "no_answers: no sample's answer could be read, so the choice carries no answer tag",
    }),
    aggregated_answer: Type.Union([AnswerValueSchema, Type.Null()], {
      description:
        "what the choice's answer tag states. Binary: the aggregate of the probabilities. Multiple choice: each option's aggregate, renormalized to sum 1. Continuous: the aggregate of the means, and the standard deviation of an equal-weight mixture of the samples' normals, √(mean of the variances + variance of the means). Continuous value only: the aggregate of the values",
    }),
    samples_requested: Type.Integer(),
    samples_answered: Type.Integer({ description: "samples whose answer went into the aggregate" }),
    samples_unanswered: Type.Integer({
      description: "samples requested whose answer could not be read (or that never came back)",
    }),
    samples_failed: Type.Integer({
      description:
        "samples whose upstream call failed (counted in samples_unanswered, absent from samples, not billed)",
    }),
    samples: Type.Array(EnsembleSampleSchema, {
      description: "the samples that came back, each at its position among the samples requested",
    }),
  },
  { description: "present when the request asked for an ensemble" },
);

export type EnsembleOptionsBody = Static<typeof EnsembleOptionsSchema>;
export type EnsembleResult = Static<typeof EnsembleResultSchema>;
export type EnsembleSample = Static<typeof EnsembleSampleSchema>;
export type AnswerValue = Static<typeof AnswerValueSchema>;
