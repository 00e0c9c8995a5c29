import type { Evaluation, ModelScores } from "./evaluate.js";
import { IMPUTED_CUTOFF_PCT } from "./forecastbench/scores.js";
import type { HeldOutCalibration } from "./held-out-calibration.js";
import type { CitationAudit, CutoffWarning, RequestAudit } from "./leak-check.js";
import { LOG_EPSILON } from "./scoring/rules.js";
import type { Aggregate, QuestionSet, SkippedCounts } from "./types.js";

export interface RunInfo {
  /** One run: every upload of a resumed or re-reported run carries the same id. */
  run_id: string;
  endpoint: string;
  models: string[];
  samples: number;
  aggregate: Aggregate;
  research: boolean;
  batches: Record<string, { batch_id: string | null; status: string | null }>;
  spent_usd: number | null;
}

export interface LeakCheck {
  ok: boolean;
  statement: string;
  requests: RequestAudit;
  resolved_before_prediction_date: { count: number; examples: string[] };
  knowledge_cutoff_warnings: CutoffWarning[];
  research: CitationAudit | null;
}

interface WithBrier {
  brier: number | null;
  brier_ci: [number, number] | null;
}

/**
 * Scores with the mean Brier over every resolved binary case named `pooled_brier`: it is not
 * ForecastBench's overall, which weighs dataset and market questions equally.
 */
export type Pooled<Scores extends WithBrier> = Omit<Scores, "brier" | "brier_ci"> & {
  pooled_brier: number | null;
  pooled_brier_ci: [number, number] | null;
};

function pooled<Scores extends WithBrier>(
  entries: Record<string, Scores>,
): Record<string, Pooled<Scores>> {
  return Object.fromEntries(
    Object.entries(entries).map(([name, { brier, brier_ci, ...rest }]) => [
      name,
      { pooled_brier: brier, pooled_brier_ci: brier_ci, ...rest },
    ]),
  );
}

/** summary.json */
export interface Summary {
  models: Record<string, Pooled<Evaluation["models"][string]>>;
  baselines: Record<string, Pooled<Evaluation["baselines"][string]>>;
  ensembles: Record<string, Pooled<Evaluation["ensembles"][string]>>;
  paired_differences: Evaluation["paired_differences"];
  cases: Evaluation["cases"];
  /** ForecastBench's 5% rule: the forecasters with more imputed forecasts than it allows. */
  imputation_rule: { cutoff_pct: number; over_cutoff: string[] };
  reference: Evaluation["reference"];
  /** How the figures are computed, in words. */
  scoring: Record<string, string>;
  /** One row per question and resolution date, with each model's forecast and score. */
  questions: Evaluation["questions"];
  leak_check: LeakCheck;
  question_set: {
    format: QuestionSet["format"];
    name: string;
    questions: number;
    requests_per_model: number;
    resolutions: number;
    skipped: SkippedCounts;
    notes: string[];
  };
  run: RunInfo;
  warnings: string[];
  /** With --calibrate: maps fitted on half the questions, scored on the other half. */
  held_out_calibration?: HeldOutCalibration;
}

export interface SummaryInput {
  set: QuestionSet;
  evaluation: Evaluation;
  run: RunInfo;
  requests: RequestAudit;
  requestsOk: boolean;
  cutoffWarnings: CutoffWarning[];
  research: CitationAudit | null;
}

export function buildSummary(input: SummaryInput): Summary {
  const { set, evaluation, run } = input;
  const excluded = evaluation.excluded;
  const researchClean = input.research === null || input.research.leaks === 0;
  // A model trained past the as-of dates is warned about, not failed: the requests were sound.
  const ok = input.requestsOk && researchClean;
  const overCutoff = Object.entries(evaluation.models).filter(
    ([, scores]) => scores.forecastbench?.imputation.over_cutoff === true,
  );
  return {
    models: pooled(evaluation.models),
    baselines: pooled(evaluation.baselines),
    ensembles: pooled(evaluation.ensembles),
    paired_differences: evaluation.paired_differences,
    cases: evaluation.cases,
    imputation_rule: {
      cutoff_pct: IMPUTED_CUTOFF_PCT,
      over_cutoff: overCutoff.map(([model]) => model),
    },
    reference: evaluation.reference,
    scoring: SCORING_NOTES,
    questions: evaluation.questions,
    leak_check: {
      ok,
      statement:
        "Every request the endpoint ran (its stored batch input files, read back) was checked to carry an answer_type and a prediction_date no later than its question's forecast due date; outcomes dated before their prediction date are not scored; models whose knowledge cutoff is after a prediction date are flagged; with research, every cited source's date is compared with the prediction date.",
      requests: input.requests,
      resolved_before_prediction_date: {
        count: excluded.length,
        examples: excluded.slice(0, 20).map((r) => `${r.itemKey} resolved ${r.resolutionDate}`),
      },
      knowledge_cutoff_warnings: input.cutoffWarnings,
      research: input.research,
    },
    question_set: {
      format: set.format,
      name: set.name,
      questions: new Set(set.items.map((item) => `${item.source}/${item.questionId}`)).size,
      requests_per_model: set.items.length,
      resolutions: set.resolutions.length,
      skipped: set.skipped,
      notes: set.notes,
    },
    run,
    warnings: [...imputationWarnings(overCutoff), ...runWarnings(input)],
  };
}

/** Models ForecastBench would leave off its leaderboard for imputing too much. */
function imputationWarnings(overCutoff: [string, ModelScores][]): string[] {
  return overCutoff.map(([model, scores]) => {
    const check = scores.forecastbench?.imputation;
    return `${model}: ${check?.overall_pct ?? 0}% of its forecasts are imputed (market ${check?.market_pct ?? "–"}%, dataset ${check?.dataset_pct ?? "–"}%), over ForecastBench's ${IMPUTED_CUTOFF_PCT}%: ForecastBench would leave it off its leaderboard.`;
  });
}

/** What the operator should know of the run: refusals, contamination, what was left out. */
function runWarnings(input: SummaryInput): string[] {
  const { set, evaluation } = input;
  const excluded = evaluation.excluded;
  const refusals = Object.entries(evaluation.models).filter(
    ([, scores]) => scores.requests.refused_for_credits > 0,
  );
  return [
    ...refusals.map(
      ([model, scores]) =>
        `${scores.requests.refused_for_credits} request(s) of ${model} were refused for lack of credits (402) and are scored as unanswered: add credits and run the backtest again with a new --out.`,
    ),
    ...input.cutoffWarnings.map(
      (w) =>
        `${w.model}: knowledge cutoff ${w.knowledge_cutoff} is after the prediction date of ${w.requests_before_cutoff} request(s) (earliest ${w.earliest_prediction_date}): the model may know the answers; this backtest is contaminated for it.`,
    ),
    ...(excluded.length > 0
      ? [`${excluded.length} resolution(s) dated before their prediction date were not scored.`]
      : []),
    ...(input.research && input.research.leaks > 0
      ? [`${input.research.leaks} cited source(s) are dated after their request's prediction date.`]
      : []),
    ...(set.skipped.combination > 0
      ? [`${set.skipped.combination} combination question(s) were not asked (not supported).`]
      : []),
    ...(set.skipped.unsupported > 0
      ? [`${set.skipped.unsupported} question(s) were not asked: ${set.notes.join("; ")}`]
      : []),
  ];
}

const SCORING_NOTES: Record<string, string> = {
  forecasts:
    "Scored as the model gave them; a probability is never clamped or rounded before scoring.",
  log_score: `Natural log of the probability given to what happened; inside the log only, probabilities are kept within [${LOG_EPSILON}, ${1 - LOG_EPSILON}], so one certain miss scores ln ${LOG_EPSILON}.`,
  pooled_brier:
    "models.*.pooled_brier (and of ensembles and baselines): the mean Brier over every resolved binary case, dataset and market alike (dataset questions, asked once per resolution date, weigh most).",
  forecastbench:
    "models.*.forecastbench: ForecastBench's leaderboard figures: the mean Brier of resolved dataset questions, of resolved market questions, and overall = their mean; intervals resample questions within each due date and source (1000 draws).",
  difficulty_adjusted:
    "With --reference: question effects from a two-way fixed-effects fit (brier ~ question + forecaster) on the chosen leaderboard's ForecastBench forecasters, less the baselines, and of its LLM runs only rounds less than 365 days after the model's release; market effects are the Imputed Forecaster's Brier on the tournament leaderboard, fixed effects on the baseline one. Score = mean(Brier − effect), shifted so that Always 0.5 scores 0.25; Brier Index = (1 − √score) × 100. Intervals: questions resampled within due date and source, effects fitted again in each of 1000 draws.",
  imputation: `Unreadable binary forecasts are scored as 0.5 and counted; ForecastBench drops a forecaster with more than ${IMPUTED_CUTOFF_PCT}% imputed over all its rows, its market rows or its dataset rows.`,
  parse_rate:
    "raw_parse_rate: answers read from the model's first reply; parse_rate: read after the endpoint's re-asks (re_asked counts them). A refusal is unread.",
  scaled_crps:
    "Continuous: CRPS of the normal forecast, and scaled_crps = CRPS / |outcome| (1 for an outcome of 0), free of the question's units.",
};
