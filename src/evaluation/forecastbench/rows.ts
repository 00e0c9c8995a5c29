import type { EvalItem, Forecast, Resolution } from "../types.js";
import type { BenchRow } from "./scores.js";
import { questionKind, questionPk } from "./sources.js";

/** The question of a resolution row, as ForecastBench names it. */
export function rowPk(item: EvalItem, resolution: Resolution): string {
  return questionPk(item.dueDate, item.source, item.questionId, resolution.resolutionDate);
}

/**
 * ForecastBench's rows of a forecaster: each binary resolution of a ForecastBench source (open
 * markets too, for the imputation rule), its forecast or 0.5 where none could be read.
 */
export function benchRows(
  resolutions: Resolution[],
  items: Map<string, EvalItem>,
  forecastOf: (item: EvalItem, resolution: Resolution) => Forecast | null,
): BenchRow[] {
  return resolutions.flatMap((resolution) => {
    const item = items.get(resolution.itemKey);
    const kind = item ? questionKind(item.source) : null;
    if (!item || kind === null || resolution.outcome.type !== "binary") return [];
    const forecast = forecastOf(item, resolution);
    const probability = forecast?.type === "binary" ? forecast.probability : null;
    return [
      {
        pk: rowPk(item, resolution),
        stratum: `${item.dueDate.slice(0, 10)}|${item.source.toLowerCase()}`,
        kind,
        forecast: probability ?? 0.5,
        outcome: resolution.outcome.value,
        imputed: probability === null,
        resolved: resolution.resolved,
      },
    ];
  });
}
