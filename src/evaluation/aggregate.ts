import {
  type AggregatableAnswer,
  aggregateAnswers,
} from "../forecast/aggregation/aggregate-answers.js";
import type { Aggregate, Forecast } from "./types.js";

export { combine } from "../forecast/aggregation/combine.js";

const letter = (index: number): string => String.fromCharCode(65 + index);

function asAnswer(forecast: Forecast): AggregatableAnswer {
  switch (forecast.type) {
    case "binary":
      return forecast;
    case "multiple_choice":
      return {
        type: "multiple_choice",
        probabilities: Object.fromEntries(forecast.probabilities.map((p, i) => [letter(i), p])),
      };
    case "continuous":
      return { type: "continuous", mean: forecast.mean, standardDeviation: forecast.sd };
  }
}

/**
 * One forecast from several of the same kind, by the service's ensemble rule
 * (aggregateAnswers): the same samples give the same aggregate here and in an `ensemble` reply.
 * Multiple-choice forecasts keep the first one's option count. Null with nothing to combine.
 */
export function aggregateForecasts(forecasts: Forecast[], aggregate: Aggregate): Forecast | null {
  const first = forecasts[0];
  if (first === undefined) return null;
  const same = forecasts.filter(
    (f) =>
      f.type === first.type &&
      (f.type !== "multiple_choice" ||
        first.type !== "multiple_choice" ||
        f.probabilities.length === first.probabilities.length),
  );
  const combined = aggregateAnswers(first.type, same.map(asAnswer), aggregate);
  switch (combined?.type) {
    case "binary":
      return combined;
    case "multiple_choice":
      return {
        type: "multiple_choice",
        probabilities: (first.type === "multiple_choice" ? first.probabilities : []).map(
          (_, i) => combined.probabilities[letter(i)] ?? 0,
        ),
      };
    case "continuous":
      return { type: "continuous", mean: combined.mean, sd: combined.standardDeviation };
    default:
      return null;
  }
}
