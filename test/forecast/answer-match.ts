import type { ForecastAnswer } from "../../src/forecast/index.js";

function close(actual: number, expected: number, tolerance: number): boolean {
  return Math.abs(actual - expected) <= tolerance * Math.max(1, Math.abs(expected));
}

/** Whether two answers agree, numbers within a relative `tolerance`. */
export function sameAnswer(
  actual: ForecastAnswer | null,
  expected: ForecastAnswer | null,
  tolerance = 1e-3,
): boolean {
  if (actual === null || expected === null) return actual === expected;
  if (actual.type !== expected.type) return false;
  switch (expected.type) {
    case "binary":
      return actual.type === "binary" && close(actual.probability, expected.probability, tolerance);
    case "multiple_choice": {
      if (actual.type !== "multiple_choice") return false;
      const letters = new Set([
        ...Object.keys(actual.probabilities),
        ...Object.keys(expected.probabilities),
      ]);
      return [...letters].every(
        (letter) =>
          letter in actual.probabilities &&
          letter in expected.probabilities &&
          close(
            actual.probabilities[letter] ?? Number.NaN,
            expected.probabilities[letter] ?? 0,
            tolerance,
          ),
      );
    }
    case "continuous":
      return (
        actual.type === "continuous" &&
        close(actual.mean, expected.mean, tolerance) &&
        close(actual.standardDeviation, expected.standardDeviation, tolerance)
      );
    case "continuous_value_only":
      return (
        actual.type === "continuous_value_only" && close(actual.value, expected.value, tolerance)
      );
    case "free_response":
      return actual.type === "free_response" && actual.text === expected.text;
  }
}
