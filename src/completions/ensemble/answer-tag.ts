import type {
  AggregatableAnswer,
  AggregatableType,
} from "../../forecast/aggregation/aggregate-answers.js";
import type { AnswerValue } from "./schema.js";

const ANSWER_TAG = /<answer>([\s\S]*)<\/answer>\s*$/;

const isNumber = (value: unknown): value is number =>
  typeof value === "number" && Number.isFinite(value);

/**
 * Reads back the answer tag the pipeline appended to a sample, so each sample's answer is the
 * one its own tag states (rounded as tags are). Tags hold JSON, with "</" written "<\/".
 */
export function readAnswerTag(type: AggregatableType, suffix: string): AggregatableAnswer | null {
  const content = ANSWER_TAG.exec(suffix)?.[1];
  if (content === undefined) return null;
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch {
    return null;
  }
  switch (type) {
    case "binary":
      return isNumber(value) ? { type, probability: value } : null;
    case "continuous_value_only":
      return isNumber(value) ? { type, value } : null;
    case "continuous": {
      if (typeof value !== "object" || value === null) return null;
      const { mean, standard_deviation: sd } = value as Record<string, unknown>;
      return isNumber(mean) && isNumber(sd) ? { type, mean, standardDeviation: sd } : null;
    }
    case "multiple_choice": {
      if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
      const entries = Object.entries(value);
      if (entries.length === 0 || !entries.every(([, p]) => isNumber(p))) return null;
      return { type, probabilities: Object.fromEntries(entries) as Record<string, number> };
    }
  }
}

/** An answer as its tag states it: a number, an option distribution or a normal. */
export function answerValue(answer: AggregatableAnswer): AnswerValue {
  switch (answer.type) {
    case "binary":
      return answer.probability;
    case "continuous_value_only":
      return answer.value;
    case "continuous":
      return { mean: answer.mean, standard_deviation: answer.standardDeviation };
    case "multiple_choice":
      return answer.probabilities;
  }
}
