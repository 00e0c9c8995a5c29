import { unprocessable } from "../errors.js";
import type { AnswerType } from "../forecast/types.js";

/** What happened: 0 or 1, an option letter, a number, or text for free responses. */
export type Outcome = number | string;

const OPTION_LETTER = /^[A-Z]$/;

/** The outcome a question of this type takes, in words for error messages. */
export function expectedOutcome(type: AnswerType): string {
  switch (type) {
    case "binary":
      return "0 or 1 (binary question)";
    case "multiple_choice":
      return 'an option letter such as "A" (multiple_choice question)';
    case "continuous":
    case "continuous_value_only":
      return `a number (${type} question)`;
    case "free_response":
      return "a text (free_response question)";
  }
}

/**
 * The outcome checked against the question's type (and its options, when known); a 422 that
 * names the expected type otherwise.
 */
export function checkedOutcome(
  type: AnswerType,
  options: Record<string, string> | null,
  outcome: unknown,
): Outcome {
  const wrong = () =>
    unprocessable(
      `outcome must be ${expectedOutcome(type)}; got ${JSON.stringify(outcome) ?? "nothing"}.`,
      "invalid_outcome",
      "outcome",
      outcome,
    );
  switch (type) {
    case "binary":
      if (outcome === 0 || outcome === 1) return outcome;
      throw wrong();
    case "multiple_choice": {
      if (typeof outcome !== "string" || !OPTION_LETTER.test(outcome)) throw wrong();
      if (options && !(outcome in options)) {
        throw unprocessable(
          `outcome must be one of the question's options (${Object.keys(options).sort().join(", ")}); got "${outcome}".`,
          "invalid_outcome",
          "outcome",
          outcome,
        );
      }
      return outcome;
    }
    case "continuous":
    case "continuous_value_only":
      if (typeof outcome === "number" && Number.isFinite(outcome)) return outcome;
      throw wrong();
    case "free_response":
      if (typeof outcome === "string" && outcome.length > 0) return outcome;
      throw wrong();
  }
}
