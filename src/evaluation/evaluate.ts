import { aggregateForecasts } from "./aggregate.js";
import { resolvedBeforePrediction } from "./leak-check.js";
import type { ForecastRecord } from "./results/records.js";
import { type ReliabilityBin, reliabilityBins } from "./scoring/calibration.js";
import {
  type Metrics,
  pairedDifference,
  type Scored,
  type ScoredCase,
  scoreCases,
} from "./scoring/score-cases.js";
import type { Aggregate, EvalItem, Forecast, QuestionSet, Resolution } from "./types.js";

export interface ModelScores extends Metrics {
  /** Forecasts whose answer could be read, over forecasts asked (every item, resolved or not). */
  parse_rate: number | null;
  /** `refused_for_credits`: lines the endpoint answered 402 (the balance ran out). */
  requests: { asked: number; failed: number; refused_for_credits: number };
  cost_usd: number;
  /** With --samples: the share of samples read, and the scores of the first sample alone. */
  sample_parse_rate?: number | null;
  first_sample?: { brier: number | null; log_score: number | null; n: number };
}

export interface Evaluation {
  models: Record<string, ModelScores>;
  baselines: {
    "always_0.5": Pick<Metrics, "brier" | "log_score" | "n" | "brier_ci" | "multiple_choice">;
    market_freeze: Pick<Metrics, "brier" | "log_score" | "n" | "brier_ci">;
  };
  ensembles: Record<string, Metrics & { members: string[] }>;
  paired_differences: {
    a: string;
    b: string;
    n: number;
    brier_difference: number | null;
    ci: [number, number] | null;
  }[];
  cases: { scored: number; unresolved: number; resolved_before_prediction_date: number };
  /** Reliability bins of binary forecasts, per model, ensemble and baseline. */
  calibration: Record<string, ReliabilityBin[]>;
  excluded: Resolution[];
}

const round = (value: number): number => Math.round(value * 1e6) / 1e6;

function casesFor(
  resolutions: Resolution[],
  items: Map<string, EvalItem>,
  forecastOf: (item: EvalItem) => Forecast | null,
): ScoredCase[] {
  return resolutions.flatMap((resolution) => {
    const item = items.get(resolution.itemKey);
    return item ? [{ item, resolution, forecast: forecastOf(item) }] : [];
  });
}

function uniform(item: EvalItem): Forecast | null {
  if (item.answerType === "binary") return { type: "binary", probability: 0.5 };
  if (item.answerType === "multiple_choice") {
    const count = item.options?.length ?? 2;
    return {
      type: "multiple_choice",
      probabilities: Array.from({ length: count }, () => 1 / count),
    };
  }
  return null;
}

export function evaluate(
  set: QuestionSet,
  records: Map<string, ForecastRecord[]>,
  aggregate: Aggregate,
  samples: number,
): Evaluation {
  const items = new Map(set.items.map((item) => [item.key, item]));
  const excluded = new Set(resolvedBeforePrediction(set.resolutions, items));
  const scorable = set.resolutions.filter((r) => r.resolved && !excluded.has(r));
  const calibration: Record<string, ReliabilityBin[]> = {};
  const scoredByName = new Map<string, Scored>();

  const models: Record<string, ModelScores> = {};
  for (const [model, list] of records) {
    const byKey = new Map(list.map((record) => [record.item.key, record]));
    const scored = scoreCases(
      casesFor(scorable, items, (item) => byKey.get(item.key)?.forecast ?? null),
    );
    scoredByName.set(model, scored);
    calibration[model] = reliabilityBins(scored.pairs);
    const read = list.filter((record) => record.forecast !== null).length;
    const scores: ModelScores = {
      ...scored.metrics,
      parse_rate: list.length === 0 ? null : round(read / list.length),
      requests: {
        asked: list.length,
        failed: list.filter((record) => record.error !== null).length,
        refused_for_credits: list.filter((record) => record.statusCode === 402).length,
      },
      cost_usd: round(list.reduce((sum, record) => sum + record.costUsd, 0)),
    };
    if (samples > 1) {
      const asked = list.reduce((sum, record) => sum + record.asked, 0);
      const readSamples = list.reduce((sum, record) => sum + record.samples.length, 0);
      scores.sample_parse_rate = asked === 0 ? null : round(readSamples / asked);
      const first = scoreCases(
        casesFor(scorable, items, (item) => byKey.get(item.key)?.samples[0] ?? null),
      ).metrics;
      scores.first_sample = { brier: first.brier, log_score: first.log_score, n: first.n };
    }
    models[model] = scores;
  }

  const always = scoreCases(casesFor(scorable, items, uniform));
  scoredByName.set("always_0.5", always);
  calibration["always_0.5"] = reliabilityBins(always.pairs);
  const marketResolutions = scorable.filter((r) => items.get(r.itemKey)?.marketValue != null);
  const market = scoreCases(
    casesFor(marketResolutions, items, (item) =>
      item.marketValue === null ? null : { type: "binary", probability: item.marketValue },
    ),
  );
  calibration.market_freeze = reliabilityBins(market.pairs);

  const ensembles: Evaluation["ensembles"] = {};
  const names = [...records.keys()];
  if (names.length >= 2) {
    const byModel = [...records.values()].map(
      (list) => new Map(list.map((record) => [record.item.key, record.forecast])),
    );
    const ensemble = scoreCases(
      casesFor(scorable, items, (item) =>
        aggregateForecasts(
          byModel.flatMap((forecasts) => {
            const forecast = forecasts.get(item.key);
            return forecast ? [forecast] : [];
          }),
          aggregate,
        ),
      ),
    );
    const name = `ensemble_${aggregate}`;
    ensembles[name] = { ...ensemble.metrics, members: names };
    calibration[name] = reliabilityBins(ensemble.pairs);
  }

  const paired: Evaluation["paired_differences"] = [];
  for (const [index, a] of names.entries()) {
    const scoresA = scoredByName.get(a)?.binaryBrier ?? new Map<string, number>();
    for (const b of [...names.slice(index + 1), "always_0.5"]) {
      const scoresB = scoredByName.get(b)?.binaryBrier ?? new Map<string, number>();
      paired.push({ a, b, ...pairedDifference(scoresA, scoresB) });
    }
  }

  return {
    models,
    baselines: {
      "always_0.5": {
        brier: always.metrics.brier,
        log_score: always.metrics.log_score,
        n: always.metrics.n,
        brier_ci: always.metrics.brier_ci,
        ...(always.metrics.multiple_choice
          ? { multiple_choice: always.metrics.multiple_choice }
          : {}),
      },
      market_freeze: {
        brier: market.metrics.brier,
        log_score: market.metrics.log_score,
        n: market.metrics.n,
        brier_ci: market.metrics.brier_ci,
      },
    },
    ensembles,
    paired_differences: paired,
    cases: {
      scored: scorable.length,
      unresolved: set.resolutions.filter((r) => !r.resolved).length,
      resolved_before_prediction_date: excluded.size,
    },
    calibration,
    excluded: [...excluded],
  };
}
