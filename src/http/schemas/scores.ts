import { Type } from "@sinclair/typebox";
import { NAIVE_DATE_TIME } from "../../completions/schema.js";
import { Nullable } from "./common.js";

/** A date in a request: Unix seconds, an ISO 8601 date or date-time, or one without a zone. */
export const DateInput = (description: string) =>
  Type.Union(
    [
      Type.Integer({
        minimum: 0,
        maximum: 253_402_300_799,
        description: "Unix seconds (up to year 9999)",
      }),
      Type.String({ format: "date-time" }),
      Type.String({ format: "date" }),
      Type.String({ pattern: NAIVE_DATE_TIME, description: "without a zone: read as UTC" }),
    ],
    { description },
  );

const Mean = (description: string) => Nullable(Type.Number({ description }));

export const ScoresQuerySchema = Type.Object({
  group_by: Type.Union([Type.Literal("model"), Type.Literal("api_key"), Type.Literal("tag")], {
    default: "model",
    description:
      "model, api_key, or tag (a question's tags; a forecast counts under each of its question's tags)",
  }),
  from: Type.Optional(DateInput("first prediction date counted (inclusive)")),
  to: Type.Optional(DateInput("prediction dates before this are counted (exclusive)")),
  bucket: Type.Optional(
    Type.Union([Type.Literal("week"), Type.Literal("month")], {
      description:
        "adds each group's `series`: its scores per UTC week (from Monday) or month of prediction date",
    }),
  ),
});

const TypeScores = (brier: string) =>
  Type.Object({
    n: Type.Integer(),
    imputed: Type.Integer(),
    brier: Mean(brier),
    log_score: Mean("mean log score"),
  });

const PeriodScoresSchema = Type.Object({
  start: Type.Integer({ description: "Unix seconds of the week's (Monday, UTC) or month's start" }),
  binary: TypeScores("mean Brier score"),
  multiple_choice: TypeScores("mean multiclass Brier score"),
  continuous: Type.Object({
    n: Type.Integer(),
    imputed: Type.Integer(),
    crps: Mean("mean CRPS"),
    log_score: Mean("mean log density"),
  }),
});

const CalibrationBinSchema = Type.Object({
  lower: Type.Number(),
  upper: Type.Number({ description: "exclusive, except 1 for the last bin" }),
  n: Type.Integer(),
  mean_forecast: Type.Number(),
  observed_frequency: Type.Number(),
});

export const ScoreReportSchema = Type.Object(
  {
    object: Type.Literal("scores"),
    group_by: Type.String(),
    from: Nullable(Type.Integer()),
    to: Nullable(Type.Integer()),
    bucket: Nullable(Type.String()),
    data: Type.Array(
      Type.Object({
        group: Nullable(Type.String({ description: "the model, API key id or tag" })),
        binary: Type.Object({
          n: Type.Integer(),
          imputed: Type.Integer({ description: "unread answers scored as 0.5" }),
          brier: Mean("mean Brier score (lower is better)"),
          log_score: Mean("mean natural log of the probability given to the outcome"),
          calibration: Type.Array(CalibrationBinSchema, {
            description: "ten equal-width bins of the forecast probability; empty bins left out",
          }),
        }),
        multiple_choice: Type.Object({
          n: Type.Integer(),
          imputed: Type.Integer({ description: "unread answers scored as uniform" }),
          brier: Mean("mean multiclass Brier score, 0 to 2"),
          log_score: Mean("mean log of the probability given to the outcome"),
        }),
        continuous: Type.Object({
          n: Type.Integer(),
          imputed: Type.Integer({ description: "always 0: a normal has no neutral value" }),
          crps: Mean("mean CRPS of the normal forecast"),
          log_score: Mean("mean log density of the outcome"),
        }),
        series: Type.Optional(
          Type.Array(PeriodScoresSchema, {
            description: "with `bucket`: periods with forecasts, oldest first",
          }),
        ),
      }),
    ),
  },
  { $id: "ScoreReport" },
);
