import type { ForecastRecord } from "../results/records.js";
import type { Forecast, Resolution } from "../types.js";

/** A forecast as written in files: a probability, option probabilities, or a normal. */
export function forecastValue(forecast: Forecast | null): unknown {
  if (forecast === null) return null;
  switch (forecast.type) {
    case "binary":
      return forecast.probability;
    case "multiple_choice":
      return forecast.probabilities;
    case "continuous":
      return { mean: forecast.mean, standard_deviation: forecast.sd };
  }
}

/** forecasts.jsonl: one row per question, resolution date and model. */
export function forecastRows(records: ForecastRecord[], resolutions: Resolution[]): string {
  const byItem = new Map<string, Resolution[]>();
  for (const resolution of resolutions) {
    const list = byItem.get(resolution.itemKey) ?? [];
    list.push(resolution);
    byItem.set(resolution.itemKey, list);
  }
  const lines = records.map((record) =>
    JSON.stringify({
      model: record.model,
      id: record.item.questionId,
      source: record.item.source,
      key: record.item.key,
      answer_type: record.item.answerType,
      prediction_date: record.item.predictionDate,
      resolution_date: record.item.resolutionDate,
      options: record.item.options,
      forecast: forecastValue(record.forecast),
      imputed: record.forecast === null,
      samples: record.samples.map(forecastValue),
      samples_asked: record.asked,
      resolutions: (byItem.get(record.item.key) ?? []).map((resolution) => ({
        resolution_date: resolution.resolutionDate,
        outcome:
          resolution.outcome.type === "multiple_choice"
            ? resolution.outcome.index
            : resolution.outcome.value,
        resolved: resolution.resolved,
      })),
      reasoning: record.reasoning,
      thinking: record.thinking,
      citations: record.citations,
      cost_usd: record.costUsd,
      error: record.error,
    }),
  );
  return lines.length === 0 ? "" : `${lines.join("\n")}\n`;
}

/** ForecastBench's forecast file: every field its resolver reads. */
export interface SubmissionFile {
  organization: string;
  model: string;
  model_organization: string;
  forecast_due_date: string;
  question_set: string;
  leaderboard_eligible: boolean;
  forecasts: {
    id: string;
    source: string;
    /** Combination questions only; Sibyl asks none, so always null. */
    direction: null;
    forecast: number;
    resolution_date: string | null;
    reasoning: string | null;
  }[];
}

export interface SubmissionNames {
  model: string;
  /** The team submitting (--organization). */
  organization: string;
  /** The model's own organization (`owned_by` in /v1/models); the team's when not known. */
  modelOrganization: string | null;
}

/**
 * A ForecastBench submission for one model: binary forecasts of the set's questions, as the
 * model gave them, market questions with `resolution_date: null`. Unreadable forecasts are left
 * out: ForecastBench imputes them (0.5) and counts them itself.
 */
export function submissionFile(
  records: ForecastRecord[],
  names: SubmissionNames,
): SubmissionFile | null {
  const first = records.find((record) => record.item.forecastBench !== null);
  const due = first?.item.forecastBench;
  if (!due) return null;
  return {
    organization: names.organization,
    model: names.model,
    model_organization: names.modelOrganization ?? names.organization,
    forecast_due_date: due.forecastDueDate,
    question_set: due.questionSet,
    leaderboard_eligible: true,
    forecasts: records.flatMap((record) =>
      record.item.forecastBench && record.forecast?.type === "binary"
        ? [
            {
              id: record.item.questionId,
              source: record.item.source,
              direction: null,
              forecast: record.forecast.probability,
              resolution_date: record.item.resolutionDate,
              reasoning: record.reasoning,
            },
          ]
        : [],
    ),
  };
}
