import { Type } from "@sinclair/typebox";
import { Nullable } from "./common.js";

const CALIBRATION_ID = { minLength: 1, maxLength: 64, pattern: "^cal_[A-Za-z0-9]+$" };
const MODEL_ID = { minLength: 1, maxLength: 256, pattern: "^[^\\u0000-\\u001f\\u007f]+$" };

const MethodSchema = Type.Union([Type.Literal("logistic"), Type.Literal("isotonic")]);

export const CalibrationObjectSchema = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal("calibration"),
    model: Type.String(),
    method: MethodSchema,
    parameters: Type.Record(Type.String(), Type.Union([Type.Number(), Type.Array(Type.Number())]), {
      description:
        "logistic: {a, b} in logit(p') = a + b·logit(p); isotonic: {x, y}, the points of a non-decreasing map, linear between them",
    }),
    n: Type.Integer({ description: "resolved binary forecasts the map was fitted on" }),
    folds: Type.Integer({ description: "folds of the cross-validation" }),
    brier_before: Type.Number({ description: "mean Brier score of the forecasts as given" }),
    brier_after: Type.Number({ description: "the chosen method's cross-validated Brier score" }),
    improved: Type.Boolean({
      description:
        "the map beat the forecasts out of sample by more than one standard error of the paired difference (taken over questions): only then do requests apply it",
    }),
    candidates: Type.Array(Type.Object({ method: MethodSchema, brier: Type.Number() }), {
      description: "each method tried, with its cross-validated Brier score",
    }),
    source: Type.Union([Type.Literal("forecasts"), Type.Literal("evaluation")], {
      description:
        "`forecasts`: fitted on the organization's recorded forecasts of the model; `evaluation`: on a backtest `sibyl eval run` kept on the server",
    }),
    evaluation: Nullable(
      Type.String({
        description:
          "the backtest's summary file id (`evaluation_file_id`) when `source` is `evaluation`",
      }),
    ),
    created_at: Type.Integer(),
  },
  { $id: "Calibration" },
);

export const CalibrationListSchema = Type.Object(
  {
    object: Type.Literal("list"),
    data: Type.Array(Type.Ref(CalibrationObjectSchema)),
    first_id: Nullable(Type.String()),
    last_id: Nullable(Type.String()),
    has_more: Type.Boolean(),
  },
  { $id: "CalibrationList" },
);

export const CalibrationCreateRequestSchema = Type.Object(
  {
    model: Type.String({
      ...MODEL_ID,
      description: "the model whose resolved binary forecasts the map is fitted on",
    }),
    evaluation: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description:
          "fit on this backtest's forecasts of the model instead of the recorded ones: the id of the summary.json `sibyl eval run` kept on the server (`evaluation_file_id`)",
      }),
    ),
  },
  { additionalProperties: false, $id: "CalibrationCreateRequest" },
);

export const CalibrationListQuerySchema = Type.Object({
  after: Type.Optional(
    Type.String({
      ...CALIBRATION_ID,
      description: "id of the last calibration of the previous page",
    }),
  ),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  model: Type.Optional(Type.String(MODEL_ID)),
});

export const CalibrationParams = Type.Object({ calibration_id: Type.String(CALIBRATION_ID) });

export const CALIBRATION_SCHEMAS = [
  CalibrationObjectSchema,
  CalibrationListSchema,
  CalibrationCreateRequestSchema,
];
