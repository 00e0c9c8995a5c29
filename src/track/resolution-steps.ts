import type { Db } from "../db/database.js";
import type { QuestionStatus } from "../db/schema.js";
import { ServiceError, unprocessable } from "../errors.js";
import type { AnswerType } from "../forecast/types.js";
import type { RecordedAnswer } from "./answer-value.js";
import { unixSecondsOf } from "./dates.js";
import { scoreForecast } from "./forecast-score.js";
import { checkedOutcome, type Outcome } from "./outcome.js";
import {
  forecastsToScore,
  insertResolution,
  latestPredictionDate,
  setForecastScore,
  updateQuestionResolution,
} from "./question-records.js";
import { optionLetters, type QuestionRow } from "./track-objects.js";

export interface ResolutionInput {
  outcome?: unknown;
  annulled?: boolean | null;
  resolved_at?: string | number | null;
  force?: boolean | null;
}

/* The steps of resolving a question (QuestionsService.applyResolution), in the order it runs them. */

/** A resolution checked against its question: what the question becomes. */
export interface Resolution {
  status: QuestionStatus;
  outcome: Outcome | null;
  /** The outcome as the question's row stores it. */
  outcomeText: string | null;
  resolvedAt: number;
}

/** The moment of resolution: given, or now; never ahead of the clock beyond its skew. */
export function resolutionTime(input: ResolutionInput, now: number, skewSeconds: number): number {
  const resolvedAt =
    input.resolved_at == null ? now : unixSecondsOf(input.resolved_at, "resolved_at");
  if (resolvedAt > now + skewSeconds) {
    throw unprocessable(
      "resolved_at is in the future: a question resolves when its outcome is known.",
      "invalid_resolution_time",
      "resolved_at",
      input.resolved_at,
    );
  }
  return resolvedAt;
}

/** The resolution the input asks for, its outcome checked against the question's answer type. */
export function resolutionOf(
  question: QuestionRow,
  input: ResolutionInput,
  resolvedAt: number,
): Resolution {
  const annulled = input.annulled === true;
  if (annulled && input.outcome != null) {
    throw unprocessable(
      "An annulled question has no outcome: send annulled without outcome.",
      "invalid_outcome",
      "outcome",
      input.outcome,
    );
  }
  const outcome: Outcome | null = annulled
    ? null
    : checkedOutcome(
        question.answer_type as AnswerType,
        question.options ? (JSON.parse(question.options) as Record<string, string>) : null,
        input.outcome,
      );
  return {
    status: annulled ? "annulled" : "resolved",
    outcome,
    outcomeText: outcome === null ? null : JSON.stringify(outcome),
    resolvedAt,
  };
}

/**
 * Whether the resolution changes the question: false for the same one again; a different one of
 * a question already resolved is a 409 unless forced.
 */
export function changesQuestion(
  question: QuestionRow,
  resolution: Resolution,
  force: boolean,
): boolean {
  if (question.status === "open") return true;
  const same = question.status === resolution.status && question.outcome === resolution.outcomeText;
  if (same && Number(question.resolved_at) === resolution.resolvedAt) return false;
  if (!force) {
    throw new ServiceError(
      "conflict",
      `Question '${question.id}' is already ${question.status}${question.outcome === null ? "" : ` with outcome ${question.outcome}`}; send force: true (sibyl questions resolve --force) to change it.`,
      { code: "question_already_resolved", param: "outcome" },
    );
  }
  return true;
}

/** A forecast cannot be scored against an outcome known before it was made: a 409. */
export async function assertAfterForecasts(
  tx: Db,
  organizationId: string,
  questionId: string,
  resolvedAt: number,
): Promise<void> {
  const latest = await latestPredictionDate(tx, organizationId, questionId);
  if (latest === null || resolvedAt >= latest) return;
  throw new ServiceError(
    "conflict",
    `resolved_at (${new Date(resolvedAt * 1000).toISOString()}) is before the prediction date of a forecast on this question (${new Date(latest * 1000).toISOString()}): a forecast cannot be scored against an outcome known before it was made.`,
    { code: "resolution_before_forecast", param: "resolved_at" },
  );
}

/** Sets the question's resolution and adds it to the question's history. */
export async function recordResolution(
  tx: Db,
  question: QuestionRow,
  resolution: Resolution,
  recorded: { at: number; by: string },
): Promise<void> {
  const { organization_id: organizationId, id } = question;
  await updateQuestionResolution(tx, organizationId, id, {
    status: resolution.status,
    outcome: resolution.outcomeText,
    resolved_at: resolution.resolvedAt,
  });
  await insertResolution(tx, {
    organization_id: organizationId,
    question_id: id,
    outcome: resolution.outcomeText,
    annulled: resolution.status === "annulled" ? 1 : 0,
    resolved_at: resolution.resolvedAt,
    recorded_at: recorded.at,
    forced: question.status !== "open" ? 1 : 0,
    recorded_by: recorded.by,
  });
}

/** Scores every forecast on the question against its resolution. */
export async function scoreForecasts(
  tx: Db,
  question: QuestionRow,
  resolution: Resolution,
): Promise<void> {
  const resolved = {
    answerType: question.answer_type as AnswerType,
    outcome: resolution.outcome,
    resolvedAt: resolution.resolvedAt,
    optionLetters: optionLetters(question),
  };
  for (const forecast of await forecastsToScore(tx, question.organization_id, question.id)) {
    const answer =
      forecast.answer === null ? null : (JSON.parse(forecast.answer) as RecordedAnswer);
    const recorded = {
      answerType: forecast.answer_type,
      answer,
      predictionDate: Number(forecast.prediction_date),
    };
    await setForecastScore(tx, Number(forecast.seq), scoreForecast(recorded, resolved));
  }
}
