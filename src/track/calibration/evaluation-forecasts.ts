import { Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { invalidRequest } from "../../errors.js";
import type { CalibrationPair } from "../../evaluation/scoring/recalibration.js";

/** What a fit reads of a backtest's summary.json (src/evaluation/summary.ts). */
const KeptSummarySchema = Type.Object({
  run: Type.Object({ models: Type.Array(Type.String()) }),
  questions: Type.Array(
    Type.Object({
      id: Type.String(),
      source: Type.String(),
      answer_type: Type.String(),
      resolved: Type.Boolean(),
      outcome: Type.Number(),
      forecasts: Type.Record(
        Type.String(),
        Type.Object({ forecast: Type.Unknown(), imputed: Type.Boolean() }),
      ),
    }),
  ),
});

/**
 * The model's resolved binary forecasts in a kept backtest summary whose answer was read, in
 * the summary's order (questions, then resolution dates), each with its question as
 * `held_out_calibration` groups them: all resolution dates of a question in one fold.
 */
export function evaluationForecasts(
  summaryText: string,
  evaluationId: string,
  model: string,
): CalibrationPair[] {
  const summary = parseKeptSummary(summaryText, evaluationId);
  if (!summary.run.models.includes(model)) {
    const models = summary.run.models.map((name) => `'${name}'`).join(", ");
    throw invalidRequest(
      `Evaluation '${evaluationId}' has no forecasts of model '${model}'; its models are ${models}.`,
      "model_not_in_evaluation",
      "model",
    );
  }
  return summary.questions.flatMap((row) => {
    const given = row.forecasts[model];
    const probability = given?.forecast;
    const scorable =
      row.answer_type === "binary" &&
      row.resolved &&
      row.outcome >= 0 &&
      row.outcome <= 1 &&
      given?.imputed === false &&
      typeof probability === "number";
    return scorable
      ? [{ probability, outcome: row.outcome, group: `${row.source}/${row.id}` }]
      : [];
  });
}

function parseKeptSummary(text: string, evaluationId: string) {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (!Value.Check(KeptSummarySchema, parsed)) {
    // Uploads are checked for the dashboard's fields only: an older summary may lack these.
    throw invalidRequest(
      `Evaluation '${evaluationId}' is not a backtest summary with a question table (summary.json of sibyl eval run).`,
      "invalid_evaluation_summary",
      "evaluation",
    );
  }
  return parsed;
}
