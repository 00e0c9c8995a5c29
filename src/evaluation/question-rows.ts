import type { ForecastRecord } from "./results/records.js";
import type { Citation } from "./results/replies.js";
import { brierScore, multiclassBrierScore, normalCrps } from "./scoring/rules.js";
import type { EvalItem, Forecast, Resolution } from "./types.js";

/** Reasoning kept per forecast in the per-question table; the whole of it is in forecasts.jsonl. */
export const REASONING_CHARS = 1500;

export interface QuestionForecast {
  /** A probability, option probabilities, or a normal's mean and standard deviation. */
  forecast: number | number[] | { mean: number; standard_deviation: number } | null;
  /** Binary: Brier; multiple choice: multiclass Brier; continuous: CRPS. Null if unresolved. */
  score: number | null;
  /** Continuous: CRPS over |outcome| (1 for an outcome of 0). */
  scaled_score?: number | null;
  imputed: boolean;
  reasoning: string | null;
  citations: Citation[];
}

/** One row of the per-question table: a question (and resolution date) and every model's forecast. */
export interface QuestionRow {
  key: string;
  id: string;
  source: string;
  answer_type: EvalItem["answerType"];
  question: string;
  options: string[] | null;
  due_date: string;
  resolution_date: string | null;
  resolved: boolean;
  /** 0–1 for binary, the option's index for multiple choice, a number for continuous. */
  outcome: number;
  market_value: number | null;
  forecasts: Record<string, QuestionForecast>;
}

/** The question line of a prompt ("Question: …"), else its first line. */
export function questionTitle(prompt: string): string {
  const line = /^Question: (.*)$/m.exec(prompt)?.[1];
  return (line ?? prompt.split("\n")[0] ?? "").trim();
}

function forecastValue(forecast: Forecast | null): QuestionForecast["forecast"] {
  if (forecast === null) return null;
  if (forecast.type === "binary") return forecast.probability;
  if (forecast.type === "multiple_choice") return forecast.probabilities;
  return { mean: forecast.mean, standard_deviation: forecast.sd };
}

const round = (value: number): number => Math.round(value * 1e6) / 1e6;

function scoreOf(
  item: EvalItem,
  forecast: Forecast | null,
  resolution: Resolution,
): Pick<QuestionForecast, "score" | "scaled_score"> {
  if (!resolution.resolved) return { score: null };
  const outcome = resolution.outcome;
  if (outcome.type === "binary") {
    const p = forecast?.type === "binary" ? forecast.probability : 0.5;
    return { score: round(brierScore(p, outcome.value)) };
  }
  if (outcome.type === "multiple_choice") {
    const count = item.options?.length ?? 2;
    const ps =
      forecast?.type === "multiple_choice"
        ? forecast.probabilities
        : Array.from({ length: count }, () => 1 / count);
    return { score: round(multiclassBrierScore(ps, outcome.index)) };
  }
  if (forecast?.type !== "continuous") return { score: null, scaled_score: null };
  const crps = normalCrps(forecast.mean, forecast.sd, outcome.value);
  return {
    score: round(crps),
    scaled_score: round(crps / (outcome.value === 0 ? 1 : Math.abs(outcome.value))),
  };
}

export function questionRows(
  resolutions: Resolution[],
  items: Map<string, EvalItem>,
  records: Map<string, ForecastRecord[]>,
): QuestionRow[] {
  const byModel = [...records].map(
    ([model, list]) => [model, new Map(list.map((r) => [r.item.key, r]))] as const,
  );
  return resolutions.flatMap((resolution) => {
    const item = items.get(resolution.itemKey);
    if (!item) return [];
    const outcome = resolution.outcome;
    return [
      {
        key: `${item.key}|${resolution.resolutionDate ?? ""}`,
        id: item.questionId,
        source: item.source,
        answer_type: item.answerType,
        question: questionTitle(item.prompt),
        options: item.options,
        due_date: item.dueDate,
        resolution_date: resolution.resolutionDate,
        resolved: resolution.resolved,
        outcome: outcome.type === "multiple_choice" ? outcome.index : outcome.value,
        market_value: item.marketValue,
        forecasts: Object.fromEntries(
          byModel.map(([model, byKey]) => {
            const record = byKey.get(item.key);
            const forecast = record?.forecast ?? null;
            return [
              model,
              {
                forecast: forecastValue(forecast),
                ...scoreOf(item, forecast, resolution),
                imputed: forecast === null,
                reasoning: record?.reasoning?.slice(0, REASONING_CHARS) ?? null,
                citations: record?.citations ?? [],
              },
            ];
          }),
        ),
      },
    ];
  });
}
