import {
  findNumbers,
  formatNumber,
  formatRounded,
  isYearLike,
  median,
  withoutDates,
} from "./numbers.js";
import type { AnswerType, ForecastAnswer, OptionMap } from "./types.js";

const NO_INFORMATION_TEXT =
  "No informative answer is available beyond the base rate: the question alone gives nothing to go on.";
const BASELINE_LEAD = "This is a baseline forecast that uses no information beyond the question.";

/** Words before a figure that make it the threshold or level the question is about. */
const COMPARISON =
  /\b(?:above|below|over|under|exceeds?|exceeding|reach(?:es)?|than|at least|at most|between|and|or|from|to|hits?|surpass(?:es)?|tops?|of|at|is|be|currently|now|was|last)\s*(?:[$€£]\s*)?$/i;
/** A question whose answer is itself a year or date keeps the years it names. */
const ASKS_FOR_A_YEAR = /\b(?:when|what year|which year|in what year|by what year)\b/i;
/** "S&P 500", "FTSE 100", "Fortune 500": a bare integer right after a capitalised name. */
const NAME_BEFORE = /(?:^|\s)(?:[A-Z][\w&.-]*)\s$/;

/** Uniform over the options the question gives; null when it gives none. */
function uniformChoices(options: OptionMap | null): Record<string, number> | null {
  const letters = Object.keys(options ?? {}).sort();
  if (letters.length === 0) return null;
  return Object.fromEntries(letters.map((letter) => [letter, 1 / letters.length]));
}

/**
 * The figure the question is about: the median of the numbers it writes that are not dates,
 * years (unless it asks when) or part of a name ("S&P 500"), preferring those written after
 * a comparison ("above 5,000", "currently 3.1%"). Null when it writes none: a baseline with no
 * figure to anchor on refuses rather than invent a scale.
 */
function quantityFromQuestion(
  question: string,
): { mean: number; standardDeviation: number } | null {
  const text = withoutDates(question);
  const keepYears = ASKS_FOR_A_YEAR.test(question);
  const candidates = findNumbers(text).filter(
    (token) =>
      (keepYears || !isYearLike(token)) &&
      !(
        token.bareInteger &&
        NAME_BEFORE.test(text.slice(Math.max(0, token.start - 30), token.start)) &&
        !COMPARISON.test(text.slice(Math.max(0, token.start - 30), token.start))
      ),
  );
  const compared = candidates.filter((token) =>
    COMPARISON.test(text.slice(Math.max(0, token.start - 30), token.start)),
  );
  const figures = (compared.length > 0 ? compared : candidates).map((token) => token.value);
  if (figures.length === 0) return null;
  const mean = median(figures);
  return { mean, standardDeviation: Math.max(Math.abs(mean) * 0.25, 1) };
}

/**
 * The built-in null model's forecast: what any real model must beat. Null when the question
 * gives it nothing to build one on (no options, no figure): see `baselineStatement`.
 */
export function baselineForecast(
  type: AnswerType,
  question: string,
  options: OptionMap | null,
): ForecastAnswer | null {
  switch (type) {
    case "binary":
      return { type, probability: 0.5 };
    case "multiple_choice": {
      const probabilities = uniformChoices(options);
      return probabilities === null ? null : { type, probabilities };
    }
    case "continuous": {
      const quantity = quantityFromQuestion(question);
      return quantity === null ? null : { type, ...quantity };
    }
    case "continuous_value_only": {
      const quantity = quantityFromQuestion(question);
      return quantity === null ? null : { type, value: quantity.mean };
    }
    case "free_response":
      return { type, text: NO_INFORMATION_TEXT };
  }
}

/** Why the baseline gives no forecast of `type` for a question; the sentence it answers with. */
export function baselineRefusal(type: AnswerType): string {
  return type === "multiple_choice"
    ? "This baseline gives no forecast: the question lists no options (such as A) … B) …) to spread the probability over."
    : "This baseline gives no forecast: the question writes no figure other than dates and years (a current value, a threshold) to centre an estimate on.";
}

/** The baseline's forecast in prose, or its refusal. */
export function baselineStatement(
  type: AnswerType,
  question: string,
  options: OptionMap | null,
): string {
  const answer = baselineForecast(type, question, options);
  return answer === null ? baselineRefusal(type) : baselineProse(answer);
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
