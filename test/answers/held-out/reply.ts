import type { AnswerType, ForecastAnswer, OptionMap } from "../../../src/forecast/index.js";

/**
 * One reply of the held-out set: written for this set alone, never used to tune the reader, so
 * its score says how the reader does on replies it has not seen.
 */
export interface HeldOutReply {
  id: string;
  /** The kind of phrasing the reply tests, to report the score class by class. */
  kind: string;
  type: AnswerType;
  reply: string;
  question?: string;
  options?: OptionMap;
  /** null: the reply commits to no answer, and reading one from it would be a misread. */
  expected: ForecastAnswer | null;
}

export const yes = (probability: number): ForecastAnswer => ({ type: "binary", probability });

export const split = (probabilities: Record<string, number>): ForecastAnswer => ({
  type: "multiple_choice",
  probabilities,
});

export const normal = (mean: number, standardDeviation: number): ForecastAnswer => ({
  type: "continuous",
  mean,
  standardDeviation,
});

export const value = (figure: number): ForecastAnswer => ({
  type: "continuous_value_only",
  value: figure,
});

export const words = (answer: string): ForecastAnswer => ({ type: "free_response", text: answer });

/** The z-score of the upper end of a central interval holding `level` percent. */
export const Z = { 50: 0.6744897501960817, 80: 1.2815515655446004, 90: 1.6448536269514722 };
