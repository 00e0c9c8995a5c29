import { aggregateForecasts } from "./aggregate.js";
import { adjustedReplicates } from "./forecastbench/adjusted-bootstrap.js";
import {
  alwaysHalf,
  type BaselineForecast,
  marketFreeze,
  marketOnDueDate,
  naiveForecaster,
} from "./forecastbench/baselines.js";
import { type DifficultyAdjusted, difficultyAdjusted } from "./forecastbench/difficulty.js";
import { type QuestionEffects, questionEffects } from "./forecastbench/question-effects.js";
import type { Reference } from "./forecastbench/reference.js";
import type { Leaderboard } from "./forecastbench/reference-models.js";
import { benchRows } from "./forecastbench/rows.js";
import { type BenchScores, benchScores } from "./forecastbench/scores.js";
import { resolvedBeforePrediction } from "./leak-check.js";
import { type QuestionRow, questionRows } from "./question-rows.js";
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

/** ForecastBench's figures for one forecaster, over the set's ForecastBench questions. */
export interface ForecastBenchFigures extends BenchScores {
  /** With --reference: the difficulty-adjusted Brier and Brier Index; else null. */
  difficulty_adjusted: DifficultyAdjusted | null;
}

export interface ModelScores extends Metrics {
  /** Share of requests whose answer was read after the endpoint's re-asks (every item). */
  parse_rate: number | null;
  /** Share of requests whose answer was in the model's first reply, without a re-ask. */
  raw_parse_rate: number | null;
  /** Replies (samples included) whose answer the endpoint had to ask for again. */
  re_asked: number;
  /** `refused_for_credits`: lines the endpoint answered 402 (the balance ran out). */
  requests: { asked: number; failed: number; refused_for_credits: number };
  cost_usd: number;
  forecastbench: ForecastBenchFigures | null;
  /** With --samples: the share of samples read, and the scores of the first sample alone. */
  sample_parse_rate?: number | null;
  first_sample?: { brier: number | null; log_score: number | null; n: number };
}

export interface BaselineScores
  extends Pick<Metrics, "brier" | "log_score" | "n" | "brier_ci" | "multiple_choice"> {
  description: string;
  forecastbench: Omit<ForecastBenchFigures, "imputation"> | null;
}

export interface Evaluation {
  models: Record<string, ModelScores>;
  baselines: Record<string, BaselineScores>;
  ensembles: Record<
    string,
    Metrics & { members: string[]; forecastbench: ForecastBenchFigures | null }
  >;
  paired_differences: {
    a: string;
    b: string;
    n: number;
    brier_difference: number | null;
    ci: [number, number] | null;
  }[];
  cases: { scored: number; unresolved: number; resolved_before_prediction_date: number };
  /** With --reference: what the question effects were estimated from. */
  reference: ReferenceInfo | null;
  /** One row per resolution row, with every model's forecast and score. */
  questions: QuestionRow[];
  /** Reliability bins of binary forecasts, per model, ensemble and baseline. */
  calibration: Record<string, ReliabilityBin[]>;
  excluded: Resolution[];
}

export interface ReferenceInfo {
  /** The ForecastBench leaderboard whose forecasters and market adjustment were used. */
  leaderboard: Leaderboard;
  files: number;
  forecasters: string[];
  fitted_on: string[];
  /** LLM rounds left out of the fit: the model was released a year or more before the round. */
  too_old: string[];
  /** LLMs left out of the fit for want of a release date (give --reference-models). */
  release_date_unknown: string[];
  market_method: QuestionEffects["marketMethod"];
  skipped: string[];
}

const round = (value: number): number => Math.round(value * 1e6) / 1e6;

type ForecastOf = (item: EvalItem, resolution: Resolution) => Forecast | null;

/** What every forecaster is scored over: the set's items, its scorable cases and ForecastBench's figures. */
interface Scoring {
  items: Map<string, EvalItem>;
  scorable: Resolution[];
  figures: (forecastOf: ForecastOf) => ForecastBenchFigures | null;
}

function casesFor(
  resolutions: Resolution[],
  items: Map<string, EvalItem>,
  forecastOf: ForecastOf,
): ScoredCase[] {
  return resolutions.flatMap((resolution) => {
    const item = items.get(resolution.itemKey);
    return item ? [{ item, resolution, forecast: forecastOf(item, resolution) }] : [];
  });
}

const BASELINE_DESCRIPTIONS: Record<string, string> = {
  "always_0.5": "0.5 on every binary question (every option alike on multiple choice)",
  market_freeze:
    "market questions: the market's value at the question set's freeze date; dataset questions: 0.5",
  market_value_on_due_date:
    "ForecastBench's Imputed Forecaster: the market's value on the forecast due date; dataset questions: 0.5",
  naive_forecaster:
    "ForecastBench's Naive Forecaster (its forecast file, else the market's value the day before the due date)",
};

export function evaluate(
  set: QuestionSet,
  records: Map<string, ForecastRecord[]>,
  aggregate: Aggregate,
  samples: number,
  reference: Reference | null = null,
  leaderboard: Leaderboard = "tournament",
): Evaluation {
  const items = new Map(set.items.map((item) => [item.key, item]));
  const excluded = new Set(resolvedBeforePrediction(set.resolutions, items));
  const kept = set.resolutions.filter((r) => !excluded.has(r));
  const effects = reference === null ? null : questionEffects(reference.rows, leaderboard);
  const scoring: Scoring = {
    items,
    scorable: kept.filter((r) => r.resolved),
    figures: benchFigures(kept, items, reference, effects),
  };
  const calibration: Record<string, ReliabilityBin[]> = {};
  const scoredByName = new Map<string, Scored>();
  const keep = (name: string, scored: Scored) => {
    scoredByName.set(name, scored);
    calibration[name] = reliabilityBins(scored.pairs);
  };

  const models: Record<string, ModelScores> = {};
  for (const [model, list] of records) {
    const { scored, scores } = scoreModel(scoring, list, samples);
    keep(model, scored);
    models[model] = scores;
  }
  const baselines: Record<string, BaselineScores> = {};
  for (const [name, forecastOf] of baselineForecasts(reference)) {
    const { scored, scores } = scoreBaseline(scoring, name, forecastOf);
    keep(name, scored);
    baselines[name] = scores;
  }
  const ensembles: Evaluation["ensembles"] = {};
  if (records.size >= 2) {
    const name = `ensemble_${aggregate}`;
    const { scored, scores } = scoreEnsemble(scoring, records, aggregate);
    ensembles[name] = scores;
    calibration[name] = reliabilityBins(scored.pairs);
  }

  return {
    models,
    baselines,
    ensembles,
    paired_differences: pairedDifferences([...records.keys()], scoredByName),
    cases: {
      scored: scoring.scorable.length,
      unresolved: set.resolutions.filter((r) => !r.resolved).length,
      resolved_before_prediction_date: excluded.size,
    },
    reference: referenceInfo(reference, effects),
    questions: questionRows(kept, items, records),
    calibration,
    excluded: [...excluded],
  };
}

/** ForecastBench's figures of one forecaster, difficulty-adjusted when a reference was given. */
function benchFigures(
  kept: Resolution[],
  items: Map<string, EvalItem>,
  reference: Reference | null,
  effects: QuestionEffects | null,
): Scoring["figures"] {
  // One set of bootstrap draws for every forecaster, over the run's ForecastBench questions.
  const replicates =
    reference === null || effects === null
      ? null
      : adjustedReplicates(
          reference.rows,
          effects,
          benchRows(kept, items, () => null).map((row) => row.pk),
        );
  return (forecastOf) => {
    const rows = benchRows(kept, items, forecastOf);
    if (rows.length === 0) return null;
    return {
      ...benchScores(rows),
      difficulty_adjusted: effects === null ? null : difficultyAdjusted(rows, effects, replicates),
    };
  };
}

function scoreModel(
  scoring: Scoring,
  list: ForecastRecord[],
  samples: number,
): { scored: Scored; scores: ModelScores } {
  const byKey = new Map(list.map((record) => [record.item.key, record]));
  const forecastOf = (item: EvalItem) => byKey.get(item.key)?.forecast ?? null;
  const scored = scoreCases(casesFor(scoring.scorable, scoring.items, forecastOf));
  const scores: ModelScores = {
    ...scored.metrics,
    ...requestFigures(list),
    forecastbench: scoring.figures(forecastOf),
  };
  if (samples > 1) {
    const asked = list.reduce((sum, record) => sum + record.asked, 0);
    const readSamples = list.reduce((sum, record) => sum + record.samples.length, 0);
    scores.sample_parse_rate = asked === 0 ? null : round(readSamples / asked);
    const first = scoreCases(
      casesFor(scoring.scorable, scoring.items, (item) => byKey.get(item.key)?.samples[0] ?? null),
    ).metrics;
    scores.first_sample = { brier: first.brier, log_score: first.log_score, n: first.n };
  }
  return { scored, scores };
}

/** How a model's requests went: answers read, re-asks, failures and cost. */
function requestFigures(
  list: ForecastRecord[],
): Pick<ModelScores, "parse_rate" | "raw_parse_rate" | "re_asked" | "requests" | "cost_usd"> {
  const read = list.filter((record) => record.forecast !== null).length;
  const firstRead = list.filter((record) => record.readings?.[0] === "first_reply").length;
  const share = (count: number) => (list.length === 0 ? null : round(count / list.length));
  return {
    parse_rate: share(read),
    raw_parse_rate: share(firstRead),
    re_asked: list.reduce(
      (sum, record) => sum + (record.readings ?? []).filter((r) => r === "re_asked").length,
      0,
    ),
    requests: {
      asked: list.length,
      failed: list.filter((record) => record.error !== null).length,
      refused_for_credits: list.filter((record) => record.statusCode === 402).length,
    },
    cost_usd: round(list.reduce((sum, record) => sum + record.costUsd, 0)),
  };
}

function baselineForecasts(reference: Reference | null): [string, BaselineForecast][] {
  return [
    ["always_0.5", alwaysHalf],
    ["market_freeze", marketFreeze],
    ...(reference === null
      ? []
      : ([
          ["market_value_on_due_date", marketOnDueDate(reference)],
          ["naive_forecaster", naiveForecaster(reference)],
        ] as [string, BaselineForecast][])),
  ];
}

function scoreBaseline(
  scoring: Scoring,
  name: string,
  forecastOf: BaselineForecast,
): { scored: Scored; scores: BaselineScores } {
  const { items } = scoring;
  // A baseline is scored where it has a forecast; ForecastBench's figures impute 0.5 elsewhere.
  const answered = scoring.scorable.filter((r) => {
    const item = items.get(r.itemKey);
    return item !== undefined && forecastOf(item, r) !== null;
  });
  const scored = scoreCases(casesFor(answered, items, forecastOf));
  const bench = scoring.figures((item, r) =>
    name === "market_freeze" && item.marketValue === null
      ? { type: "binary", probability: 0.5 }
      : forecastOf(item, r),
  );
  const scores: BaselineScores = {
    description: BASELINE_DESCRIPTIONS[name] ?? name,
    brier: scored.metrics.brier,
    log_score: scored.metrics.log_score,
    n: scored.metrics.n,
    brier_ci: scored.metrics.brier_ci,
    ...(scored.metrics.multiple_choice ? { multiple_choice: scored.metrics.multiple_choice } : {}),
    forecastbench: bench === null ? null : withoutImputation(bench),
  };
  return { scored, scores };
}

/** The models' forecasts aggregated question by question, scored as one more forecaster. */
function scoreEnsemble(
  scoring: Scoring,
  records: Map<string, ForecastRecord[]>,
  aggregate: Aggregate,
): { scored: Scored; scores: Evaluation["ensembles"][string] } {
  const forecastsByModel = [...records.values()].map(
    (list) => new Map(list.map((r) => [r.item.key, r.forecast])),
  );
  const ensembleForecasts = new Map<string, Forecast | null>();
  const ensembleOf = (item: EvalItem) => {
    if (!ensembleForecasts.has(item.key)) {
      const members = forecastsByModel.flatMap((forecasts) => {
        const forecast = forecasts.get(item.key);
        return forecast ? [forecast] : [];
      });
      ensembleForecasts.set(item.key, aggregateForecasts(members, aggregate));
    }
    return ensembleForecasts.get(item.key) ?? null;
  };
  const scored = scoreCases(casesFor(scoring.scorable, scoring.items, ensembleOf));
  const scores = {
    ...scored.metrics,
    members: [...records.keys()],
    forecastbench: scoring.figures(ensembleOf),
  };
  return { scored, scores };
}

/** Each model's Brier against every later model and against 0.5, on the questions both answered. */
function pairedDifferences(
  names: string[],
  scoredByName: Map<string, Scored>,
): Evaluation["paired_differences"] {
  const paired: Evaluation["paired_differences"] = [];
  for (const [index, a] of names.entries()) {
    const scoresA = scoredByName.get(a)?.binaryBrier ?? new Map<string, number>();
    for (const b of [...names.slice(index + 1), "always_0.5"]) {
      const scoresB = scoredByName.get(b)?.binaryBrier ?? new Map<string, number>();
      paired.push({ a, b, ...pairedDifference(scoresA, scoresB) });
    }
  }
  return paired;
}

function referenceInfo(
  reference: Reference | null,
  effects: QuestionEffects | null,
): ReferenceInfo | null {
  if (reference === null || effects === null) return null;
  return {
    leaderboard: effects.leaderboard,
    files: reference.files,
    forecasters: reference.forecasters,
    fitted_on: effects.fittedOn,
    too_old: effects.tooOld,
    release_date_unknown: effects.releaseDateUnknown,
    market_method: effects.marketMethod,
    skipped: reference.skipped,
  };
}

function withoutImputation(
  figures: ForecastBenchFigures,
): Omit<ForecastBenchFigures, "imputation"> {
  return {
    dataset: figures.dataset,
    market: figures.market,
    overall: figures.overall,
    difficulty_adjusted: figures.difficulty_adjusted,
  };
}
