/** The structured answer kinds of the interface (2.1), in the canonical lowercase form. */
export const ANSWER_TYPES = [
  "binary",
  "multiple_choice",
  "continuous",
  "continuous_value_only",
  "free_response",
] as const;

export type AnswerType = (typeof ANSWER_TYPES)[number];

/** What a request may ask for: a concrete type or server-side classification. */
export type RequestedAnswerType = AnswerType | "auto";

/** Option letter → option text, as parsed from a multiple-choice question. */
export type OptionMap = Record<string, string>;

export type ForecastAnswer =
  | { type: "binary"; probability: number }
  | { type: "multiple_choice"; probabilities: Record<string, number> }
  | { type: "continuous"; mean: number; standardDeviation: number }
  | { type: "continuous_value_only"; value: number }
  | { type: "free_response"; text: string };
