import { formatNumber } from "./numbers.js";
import type { ForecastAnswer, OptionMap } from "./types.js";

const CHOICE_DECIMALS = 4;
const CHOICE_UNITS = 10 ** CHOICE_DECIMALS;

/**
 * Probabilities rounded to 4 decimals that still sum to exactly 1: the rounding remainder goes
 * to the largest one, where it changes the forecast least.
 */
function roundedChoices(probabilities: Record<string, number>): Record<string, number> {
  const letters = Object.keys(probabilities).sort();
  const units = letters.map((letter) => Math.round((probabilities[letter] ?? 0) * CHOICE_UNITS));
  const remainder = CHOICE_UNITS - units.reduce((sum, unit) => sum + unit, 0);
  const largest = units.indexOf(Math.max(...units));
  if (largest !== -1) units[largest] = (units[largest] ?? 0) + remainder;
  return Object.fromEntries(
    letters.map((letter, index) => [letter, (units[index] ?? 0) / CHOICE_UNITS]),
  );
}

// JSON inside a tag must not close the tag: "</" is written "<\/", which JSON reads the same.
function tagSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/<\//g, "<\\/");
}

function tagContent(answer: ForecastAnswer): string {
  switch (answer.type) {
    case "binary":
      // The probability the model gave, as given: neither clamped nor rounded.
      return formatNumber(answer.probability);
    case "multiple_choice":
      return tagSafeJson(roundedChoices(answer.probabilities));
    case "continuous":
      return tagSafeJson({
        mean: Number(formatNumber(answer.mean)),
        standard_deviation: Number(formatNumber(answer.standardDeviation)),
      });
    case "continuous_value_only":
      return formatNumber(answer.value);
    case "free_response":
      return answer.text.replace(/<\s*\/\s*answer\s*>/gi, "");
  }
}

/** The answer tag appended to a reply: `<answer>0.62</answer>`, `<answer>{"A":0.55,"B":0.45}</answer>`… */
export function formatAnswerTag(answer: ForecastAnswer): string {
  return `<answer>${tagContent(answer)}</answer>`;
}

/** The options tag written before a multiple-choice answer in text completions. */
export function formatOptionsTag(options: OptionMap): string {
  const sorted = Object.fromEntries(Object.entries(options).sort(([a], [b]) => a.localeCompare(b)));
  return `<options>${tagSafeJson(sorted)}</options>`;
}
