import { reliabilityBins } from "../evaluation/scoring/calibration.js";
import {
  binaryLogScore,
  brierScore,
  gaussianLogScore,
  multiclassBrierScore,
  multiclassLogScore,
  normalCrps,
} from "../evaluation/scoring/rules.js";
import type { AnswerType } from "../forecast/types.js";
import type { RecordedAnswer } from "./answer-value.js";
import type { Outcome } from "./outcome.js";

/** A forecast's scores as stored with it; all null (and not counted) when it is not scored. */
export interface ForecastScore {
  scored: number;
  imputed: number;
  brier: number | null;
  log_score: number | null;
  crps: number | null;
  probability: number | null;
  outcome_value: number | null;
  calibration_bin: number | null;
}

export const UNSCORED: ForecastScore = {
  scored: 0,
  imputed: 0,
  brier: null,
  log_score: null,
  crps: null,
  probability: null,
  outcome_value: null,
  calibration_bin: null,
};

/** The resolution a forecast is scored against; null outcome: open or annulled. */
export interface ScoringResolution {
  answerType: AnswerType;
  outcome: Outcome | null;
  resolvedAt: number;
  /** The question's option letters, when known: an unread answer is scored as uniform over them. */
  optionLetters: string[] | null;
}

/** Equal-width calibration bins over [0, 1], as `sibyl eval` draws them. */
export const CALIBRATION_BINS = 10;

/**
 * Scores one forecast with `sibyl eval`'s rules. A forecast counts only when its question has an
 * outcome, its answer was read and is of the question's type, and it was made (as of its
 * prediction date) before the outcome was known.
 */
export function scoreForecast(
  forecast: { answerType: string; answer: RecordedAnswer | null; predictionDate: number },
  resolution: ScoringResolution,
): ForecastScore {
  const { outcome, answerType } = resolution;
  if (outcome === null || forecast.answerType !== answerType) return UNSCORED;
  if (forecast.predictionDate > resolution.resolvedAt) return UNSCORED;
  // An answer that could not be read is scored as `sibyl eval` (and ForecastBench) score it.
  const answer = forecast.answer ?? imputedAnswer(answerType, resolution.optionLetters);
  if (answer === null) return UNSCORED;
  const imputed = forecast.answer === null ? 1 : 0;
  return { ...scoreAnswer(answerType, answer, outcome), imputed };
}

function imputedAnswer(type: AnswerType, optionLetters: string[] | null): RecordedAnswer | null {
  if (type === "binary") return 0.5;
  if (type === "multiple_choice" && optionLetters && optionLetters.length > 0) {
    return Object.fromEntries(optionLetters.map((letter) => [letter, 1 / optionLetters.length]));
  }
  return null;
}

function scoreAnswer(
  answerType: AnswerType,
  answer: RecordedAnswer,
  outcome: Outcome,
): ForecastScore {
  switch (answerType) {
    case "binary": {
      if (typeof answer !== "number" || typeof outcome !== "number") return UNSCORED;
      const pair = { probability: answer, outcome };
      const bin = reliabilityBins([pair], CALIBRATION_BINS)[0];
      return {
        ...UNSCORED,
        scored: 1,
        brier: brierScore(answer, outcome),
        log_score: binaryLogScore(answer, outcome),
        probability: answer,
        outcome_value: outcome,
        calibration_bin: bin ? Math.round(bin.lower * CALIBRATION_BINS) : null,
      };
    }
    case "multiple_choice": {
      if (typeof answer !== "object" || "mean" in answer || typeof outcome !== "string") {
        return UNSCORED;
      }
      const distribution = answer as Record<string, number>;
      const letters = [...new Set([...Object.keys(distribution), outcome])].sort();
      const probabilities = letters.map((letter) => distribution[letter] ?? 0);
      const index = letters.indexOf(outcome);
      return {
        ...UNSCORED,
        scored: 1,
        brier: multiclassBrierScore(probabilities, index),
        log_score: multiclassLogScore(probabilities, index),
      };
    }
    case "continuous": {
      if (typeof answer !== "object" || !("mean" in answer) || typeof outcome !== "number") {
        return UNSCORED;
      }
      const mean = Number(answer.mean);
      const sd = Number(answer.standard_deviation);
      if (!(sd > 0)) return UNSCORED;
      return {
        ...UNSCORED,
        scored: 1,
        crps: normalCrps(mean, sd, outcome),
        log_score: gaussianLogScore(mean, sd, outcome),
      };
    }
    default:
      // A single value or a text has no proper score: kept, not scored.
      return UNSCORED;
  }
}
