import {
  findNumbers,
  formatNumber,
  formatRounded,
  isYearLike,
  median,
  withoutDates,
} from "./numbers.js";
import type { AnswerType, ForecastAnswer, OptionMap } from "./types.js";

const DEFAULT_CHOICE_LETTERS = ["A", "B", "C", "D"];
const NO_INFORMATION_TEXT =
  "No informative answer is available beyond the base rate: the question alone gives nothing to go on.";
const BASELINE_LEAD = "This is a baseline forecast that uses no information beyond the question.";

/** Uniform over the known options; A–D when none were parsed; never fewer than A and B. */
function uniformChoices(options: OptionMap | null): Record<string, number> {
  const letters = new Set(options === null ? DEFAULT_CHOICE_LETTERS : Object.keys(options));
  letters.add("A").add("B");
  const sorted = [...letters].sort();
  return Object.fromEntries(sorted.map((letter) => [letter, 1 / sorted.length]));
}

/**
 * The median of the figures the question mentions (thresholds, current values), passing over
 * years unless only years are written. A question without figures gives no scale at all, so
 * the estimate is 0 with a spread of 1: the standard normal, an explicit "no information".
 */
function quantityFromQuestion(question: string): { mean: number; standardDeviation: number } {
  const tokens = findNumbers(withoutDates(question));
  const quantities = tokens.filter((token) => !isYearLike(token));
  const figures = (quantities.length > 0 ? quantities : tokens).map((token) => token.value);
  const mean = figures.length > 0 ? median(figures) : 0;
  return { mean, standardDeviation: Math.max(Math.abs(mean) * 0.25, 1) };
}

/** The built-in null model's forecast: what any real model must beat. */
export function baselineForecast(
  type: AnswerType,
  question: string,
  options: OptionMap | null,
): ForecastAnswer {
  switch (type) {
    case "binary":
      return { type, probability: 0.5 };
    case "multiple_choice":
      return { type, probabilities: uniformChoices(options) };
    case "continuous":
      return { type, ...quantityFromQuestion(question) };
    case "continuous_value_only":
      return { type, value: quantityFromQuestion(question).mean };
    case "free_response":
      return { type, text: NO_INFORMATION_TEXT };
  }
}

function percent(fraction: number): string {
  return `${formatRounded(fraction * 100, 4)}%`;
}

/** The answer in a few plain lines, written so that extracting it gives the answer back. */
export function baselineProse(answer: ForecastAnswer): string {
  switch (answer.type) {
    case "binary":
      return `${BASELINE_LEAD}\nProbability: ${percent(answer.probability)}`;
    case "multiple_choice": {
      const lines = Object.entries(answer.probabilities)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([letter, probability]) => `${letter}: ${percent(probability)}`);
      return [`${BASELINE_LEAD} No option is favoured over another.`, ...lines].join("\n");
    }
    case "continuous":
      return [
        BASELINE_LEAD,
        `Mean: ${formatNumber(answer.mean)}`,
        `Standard deviation: ${formatNumber(answer.standardDeviation)}`,
      ].join("\n");
    case "continuous_value_only":
      return `${BASELINE_LEAD}\nFinal answer: ${formatNumber(answer.value)}`;
    case "free_response":
      return answer.text;
  }
}
