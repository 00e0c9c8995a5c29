import { resolvedBeforePrediction } from "./leak-check.js";
import type { ForecastRecord } from "./results/records.js";
import { seededRandom } from "./scoring/bootstrap.js";
import {
  applyMap,
  type CalibrationMethod,
  type CalibrationPair,
  fitCalibration,
  MIN_FIT_FORECASTS,
  mapParameters,
  meanBrier,
} from "./scoring/recalibration.js";
import type { QuestionSet } from "./types.js";

/** One model's map, fitted on the fitting half and scored on the held-out half. */
export interface ModelHeldOutCalibration {
  /** Resolved binary forecasts (answers read) in each half. */
  fit_n: number;
  held_out_n: number;
  method: CalibrationMethod | null;
  parameters: Record<string, number | number[]> | null;
  /** The fit's own cross-validated Brier scores on the fitting half, as the service stores them. */
  cross_validated: { brier_before: number; brier_after: number; improved: boolean } | null;
  /** Mean Brier on the held-out half, of the forecasts as given and through the map. */
  held_out_brier_raw: number | null;
  held_out_brier_calibrated: number | null;
  /** Why no map was fitted. */
  note: string | null;
}

/** summary.json's `held_out_calibration` (`sibyl eval --calibrate`). */
export interface HeldOutCalibration {
  seed: number;
  statement: string;
  fit_questions: number;
  held_out_questions: number;
  models: Record<string, ModelHeldOutCalibration>;
}

/**
 * Splits the set's questions in two by a seeded shuffle within each source (every resolution
 * date of a question falls in the same half, so nothing of the held-out half is seen by the
 * fit), fits each model's calibration map on one half and scores the other half raw and
 * calibrated.
 */
export function heldOutCalibration(
  set: QuestionSet,
  records: Map<string, ForecastRecord[]>,
  seed: number,
): HeldOutCalibration {
  const items = new Map(set.items.map((item) => [item.key, item]));
  const excluded = new Set(resolvedBeforePrediction(set.resolutions, items));
  const binary = set.resolutions.filter(
    (r) => r.resolved && !excluded.has(r) && r.outcome.type === "binary",
  );
  const questionOf = (itemKey: string) => {
    const item = items.get(itemKey);
    return item ? `${item.source}/${item.questionId}` : itemKey;
  };
  const sources = new Map(
    binary.map((r) => [questionOf(r.itemKey), items.get(r.itemKey)?.source ?? ""]),
  );
  const fitting = fittingHalf(sources, seed);

  const models: Record<string, ModelHeldOutCalibration> = {};
  for (const [model, list] of records) {
    const forecasts = new Map(list.map((record) => [record.item.key, record.forecast]));
    const fit: CalibrationPair[] = [];
    const held: CalibrationPair[] = [];
    for (const resolution of binary) {
      const forecast = forecasts.get(resolution.itemKey);
      if (forecast?.type !== "binary" || resolution.outcome.type !== "binary") continue;
      const group = questionOf(resolution.itemKey);
      const pair = { probability: forecast.probability, outcome: resolution.outcome.value, group };
      (fitting.has(group) ? fit : held).push(pair);
    }
    models[model] = modelCalibration(fit, held);
  }
  return {
    seed,
    statement:
      "Questions split in two by a seeded shuffle within each source; each model's map (logistic in logit space, isotonic from 100 forecasts, chosen by 5-fold cross-validation) is fitted on the first half's resolved binary forecasts (folds and standard errors by question) and scored on the second's. The service applies a map only when cross_validated.improved is true.",
    fit_questions: fitting.size,
    held_out_questions: sources.size - fitting.size,
    models,
  };
}

/**
 * The fitting half of the questions, stratified by source: each source's questions are shuffled
 * by the seed and dealt alternately to the two halves (the turn carried from one source to the
 * next), so both halves hold about half of each source. Sources differ in base rate (ACLED
 * questions resolve yes 5% of the time, yfinance ones 66% in ForecastBench's 2024-07-21 round)
 * and in how well a model does on them; an unstratified split of a hundred-odd questions gave
 * the halves different mixes, and a map fitted on one half moved the other's forecasts by the
 * difference.
 */
function fittingHalf(sources: Map<string, string>, seed: number): Set<string> {
  const bySource = new Map<string, string[]>();
  for (const question of [...sources.keys()].sort()) {
    const source = sources.get(question) ?? "";
    const list = bySource.get(source) ?? [];
    list.push(question);
    bySource.set(source, list);
  }
  const random = seededRandom(seed);
  const dealt = [...bySource.keys()].sort().flatMap((source) => {
    const list = bySource.get(source) ?? [];
    for (let index = list.length - 1; index > 0; index--) {
      const other = Math.floor(random() * (index + 1));
      [list[index], list[other]] = [list[other] as string, list[index] as string];
    }
    return list;
  });
  return new Set(dealt.filter((_, index) => index % 2 === 0));
}

function modelCalibration(
  fit: CalibrationPair[],
  held: CalibrationPair[],
): ModelHeldOutCalibration {
  const raw = held.length === 0 ? null : meanBrier(held);
  if (fit.length < MIN_FIT_FORECASTS) {
    return {
      fit_n: fit.length,
      held_out_n: held.length,
      method: null,
      parameters: null,
      cross_validated: null,
      held_out_brier_raw: raw,
      held_out_brier_calibrated: null,
      note: `a map needs at least ${MIN_FIT_FORECASTS} resolved binary forecasts in the fitting half; it has ${fit.length}`,
    };
  }
  const fitted = fitCalibration(fit);
  const { map } = fitted;
  return {
    fit_n: fit.length,
    held_out_n: held.length,
    method: map.method,
    parameters: mapParameters(map),
    cross_validated: {
      brier_before: fitted.brierBefore,
      brier_after: fitted.brierAfter,
      improved: fitted.improved,
    },
    held_out_brier_raw: raw,
    held_out_brier_calibrated: held.length === 0 ? null : meanBrier(held, (p) => applyMap(map, p)),
    note: null,
  };
}
