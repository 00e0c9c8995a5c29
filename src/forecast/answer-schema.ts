import type { AnswerType, ForecastAnswer, OptionMap } from "./types.js";

/** `response_format` as OpenAI-compatible servers take it. */
export interface AnswerResponseFormat {
  type: "json_schema";
  json_schema: { name: string; strict: boolean; schema: Record<string, unknown> };
}

type Schema = Record<string, unknown>;

const PROBABILITY: Schema = { type: "number", minimum: 0, maximum: 1 };

function object(properties: Record<string, Schema>): Schema {
  return {
    type: "object",
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  };
}

function optionLetters(options: OptionMap | null): string[] {
  return options === null ? ["A", "B"] : Object.keys(options).sort();
}

/** The JSON Schema an answer of `type` must follow, so a constrained reply is always valid. */
export function answerJsonSchema(type: AnswerType, options: OptionMap | null): Schema {
  switch (type) {
    case "binary":
      return object({ probability: PROBABILITY });
    case "multiple_choice":
      return object(
        Object.fromEntries(optionLetters(options).map((letter) => [letter, PROBABILITY])),
      );
    case "continuous":
      return object({
        mean: { type: "number" },
        standard_deviation: { type: "number", exclusiveMinimum: 0 },
      });
    case "continuous_value_only":
      return object({ value: { type: "number" } });
    case "free_response":
      return object({ answer: { type: "string", minLength: 1 } });
  }
}

/** `response_format` asking the model server for an answer under the type's schema. */
export function answerResponseFormat(
  type: AnswerType,
  options: OptionMap | null,
): AnswerResponseFormat {
  return {
    type: "json_schema",
    json_schema: { name: `${type}_answer`, strict: true, schema: answerJsonSchema(type, options) },
  };
}

function finite(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

function parsed(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text.trim());
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/**
 * The answer a schema-constrained reply states, or null when it does not follow the schema
 * (a server that ignored it): then the reply is read like any other.
 */
export function answerFromStructured(
  type: AnswerType,
  text: string,
  options: OptionMap | null,
): ForecastAnswer | null {
  const value = parsed(text);
  if (value === null) return null;
  switch (type) {
    case "binary": {
      const probability = value.probability;
      return finite(probability) && probability >= 0 && probability <= 1
        ? { type, probability }
        : null;
    }
    case "multiple_choice": {
      const letters = optionLetters(options);
      const figures = letters.map((letter) => value[letter]);
      if (!figures.every((figure) => finite(figure) && figure >= 0 && figure <= 1)) return null;
      const total = (figures as number[]).reduce((sum, figure) => sum + figure, 0);
      if (total <= 0) return null;
      return {
        type,
        probabilities: Object.fromEntries(
          letters.map((letter, index) => [letter, (figures[index] as number) / total]),
        ),
      };
    }
    case "continuous": {
      const { mean, standard_deviation: spread } = value;
      return finite(mean) && finite(spread) && spread > 0
        ? { type, mean, standardDeviation: spread }
        : null;
    }
    case "continuous_value_only":
      return finite(value.value) ? { type, value: value.value } : null;
    case "free_response":
      return typeof value.answer === "string" && value.answer.trim() !== ""
        ? { type, text: value.answer.trim() }
        : null;
  }
}
