import type { Static } from "@sinclair/typebox";
import {
  applyMap,
  applyMapToChoices,
  type CalibrationMap,
} from "../evaluation/scoring/recalibration.js";
import type { ForecastAnswer } from "../forecast/types.js";
import type { CalibrationReportSchema } from "./response-schema.js";

/** The `calibration` part of a choice's `forecast` extension. */
export type CalibrationReport = Static<typeof CalibrationReportSchema>;

/** A stored calibration map as a request applies it. */
export interface StoredCalibration {
  id: string;
  map: CalibrationMap;
  /** The map beat the raw forecasts out of sample: only then is it applied. */
  improved: boolean;
}

/** Finds the calibration a request names: an id, or `auto` for the model's latest. */
export interface CalibrationLookup {
  forRequest(
    organizationId: string,
    model: string,
    requested: string,
  ): Promise<StoredCalibration | undefined>;
}

/** What a request asked for, and the map found (null: `auto` and the model has none). */
export interface CalibrationChoice {
  stored: StoredCalibration | null;
}

/**
 * The answer the tags carry and the report of what was done: a binary probability through the
 * map, multiple-choice probabilities each through the map and then renormalised. The answer is
 * kept as read when there is no map, or the map did not improve out-of-sample Brier.
 */
export function calibrateAnswer(
  choice: CalibrationChoice,
  answer: ForecastAnswer,
): { answer: ForecastAnswer; report: CalibrationReport } {
  const { stored } = choice;
  const raw =
    answer.type === "binary"
      ? answer.probability
      : answer.type === "multiple_choice"
        ? answer.probabilities
        : null;
  const kept = (reason: string) => ({
    answer,
    report: { id: stored?.id ?? null, applied: false, reason, raw_answer: raw },
  });
  if (!stored) return kept("no_calibration");
  if (!stored.improved) return kept("not_improved");
  const applied = { id: stored.id, applied: true, reason: null, raw_answer: raw };
  if (answer.type === "binary") {
    return {
      answer: { ...answer, probability: applyMap(stored.map, answer.probability) },
      report: applied,
    };
  }
  if (answer.type === "multiple_choice") {
    return {
      answer: { ...answer, probabilities: applyMapToChoices(stored.map, answer.probabilities) },
      report: applied,
    };
  }
  return kept("not_a_probability");
}

/** The report of a reply whose answer could not be read: nothing to calibrate. */
export function unreadReport(choice: CalibrationChoice): CalibrationReport {
  return { id: choice.stored?.id ?? null, applied: false, reason: "no_answer", raw_answer: null };
}
