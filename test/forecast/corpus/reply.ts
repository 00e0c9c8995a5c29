import type { AnswerType, ForecastAnswer, OptionMap } from "../../../src/forecast/index.js";

/** One model reply as real models write them, with the answer a careful reader takes from it. */
export interface CorpusReply {
  id: string;
  type: AnswerType;
  reply: string;
  /** The question asked, when its wording decides the unit of the answer. */
  question?: string;
  options?: OptionMap;
  /** null: the reply states no single answer, and extraction must say so rather than guess. */
  expected: ForecastAnswer | null;
}

export const FENCE = "```";

export const yes = (probability: number): ForecastAnswer => ({ type: "binary", probability });

export const choices = (probabilities: Record<string, number>): ForecastAnswer => ({
  type: "multiple_choice",
  probabilities,
});

export const quantity = (mean: number, standardDeviation: number): ForecastAnswer => ({
  type: "continuous",
  mean,
  standardDeviation,
});

export const single = (value: number): ForecastAnswer => ({ type: "continuous_value_only", value });

export const text = (answer: string): ForecastAnswer => ({ type: "free_response", text: answer });
