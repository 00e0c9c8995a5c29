import type { EvalItem, Forecast, Resolution } from "../types.js";
import type { Reference } from "./reference.js";
import { rowPk } from "./rows.js";
import { questionKind } from "./sources.js";

/** A baseline's forecast for a resolution row; null where it has none. */
export type BaselineForecast = (item: EvalItem, resolution: Resolution) => Forecast | null;

const binary = (probability: number | null | undefined): Forecast | null =>
  probability === null || probability === undefined ? null : { type: "binary", probability };

/** 0.5 for a binary question, every option alike for a multiple-choice one. */
export const alwaysHalf: BaselineForecast = (item) => {
  if (item.answerType === "binary") return { type: "binary", probability: 0.5 };
  if (item.answerType === "multiple_choice") {
    const count = item.options?.length ?? 2;
    return {
      type: "multiple_choice",
      probabilities: Array.from({ length: count }, () => 1 / count),
    };
  }
  return null;
};

/** The market's value at the question set's freeze date (about ten days before the due date). */
export const marketFreeze: BaselineForecast = (item) => binary(item.marketValue);

/**
 * ForecastBench's Imputed Forecaster: the market's value on the forecast due date (from the
 * reference files), 0.5 on dataset questions.
 */
export function marketOnDueDate(reference: Reference): BaselineForecast {
  return (item, resolution) =>
    questionKind(item.source) === "market"
      ? binary(reference.marketValues.get(rowPk(item, resolution))?.onDueDate)
      : binary(0.5);
}

/**
 * ForecastBench's Naive Forecaster: its own forecasts where the reference holds its file, else on
 * market questions the market's value the day before the due date.
 */
export function naiveForecaster(reference: Reference): BaselineForecast {
  return (item, resolution) => {
    const pk = rowPk(item, resolution);
    const own = reference.naive.get(pk);
    if (own !== undefined) return binary(own);
    return questionKind(item.source) === "market"
      ? binary(reference.marketValues.get(pk)?.dayBefore)
      : null;
  };
}
