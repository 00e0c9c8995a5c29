import type { AnswerType, OptionMap } from "./types.js";

/** How the final answer must be written for a type: a tag example and what it holds. */
export interface AnswerShape {
  example: string;
  meaning: string;
}

function optionLetters(options: OptionMap | null): string[] {
  return options === null ? [] : Object.keys(options).sort();
}

function choiceMeaning(options: OptionMap | null): string {
  const letters = optionLetters(options);
  const base =
    "mapping each option letter to the probability (between 0 and 1) that it is the outcome; " +
    "the probabilities sum to 1, and an option you rule out gets 0.";
  if (letters.length === 0) return base;
  const listed = letters.map((letter) => `${letter}: ${options?.[letter] ?? ""}`).join("\n");
  return `${base} Use exactly the letters ${letters.join(", ")}:\n${listed}`;
}

export function answerShape(type: AnswerType, options: OptionMap | null): AnswerShape {
  switch (type) {
    case "binary":
      return {
        example: "<answer>0.62</answer>",
        meaning:
          "where the number is your probability, between 0 and 1, that the question resolves Yes.",
      };
    case "multiple_choice":
      return {
        example: '<answer>{"A": 0.55, "B": 0.45}</answer>',
        meaning: choiceMeaning(options),
      };
    case "continuous":
      return {
        example: '<answer>{"mean": 42.5, "standard_deviation": 5.2}</answer>',
        meaning:
          "where mean is your central estimate and standard_deviation (greater than 0) your " +
          "uncertainty, both plain numbers in the question's units, without unit signs or " +
          "thousands separators.",
      };
    case "continuous_value_only":
      return {
        example: "<answer>42.5</answer>",
        meaning:
          "where the number is your single best estimate, a plain number in the question's " +
          "units, without unit signs or thousands separators.",
      };
    case "free_response":
      return {
        example: "<answer>text</answer>",
        meaning: "where text is your answer in a few plain sentences.",
      };
  }
}
