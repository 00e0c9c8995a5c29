import type { Evaluation } from "./evaluate.js";
import type { CitationAudit, CutoffWarning, RequestAudit } from "./leak-check.js";
import type { Aggregate, QuestionSet, SkippedCounts } from "./types.js";

export interface RunInfo {
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

/** summary.json */
export interface Summary {
  models: Evaluation["models"];
  baselines: Evaluation["baselines"];
  ensembles: Evaluation["ensembles"];
  paired_differences: Evaluation["paired_differences"];
  cases: Evaluation["cases"];
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
  const refusals = Object.entries(evaluation.models).filter(
    ([, scores]) => scores.requests.refused_for_credits > 0,
  );
  const warnings = [
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
  const questions = new Set(set.items.map((item) => `${item.source}/${item.questionId}`)).size;
  return {
    models: evaluation.models,
    baselines: evaluation.baselines,
    ensembles: evaluation.ensembles,
    paired_differences: evaluation.paired_differences,
    cases: evaluation.cases,
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
      questions,
      requests_per_model: set.items.length,
      resolutions: set.resolutions.length,
      skipped: set.skipped,
      notes: set.notes,
    },
    run,
    warnings,
  };
}
