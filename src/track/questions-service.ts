import { retryOnContention } from "../cluster/database-outage.js";
import type { Db } from "../db/database.js";
import { listPage } from "../db/list-pages.js";
import type { QuestionStatus } from "../db/schema.js";
import { notFound, ServiceError, unprocessable } from "../errors.js";
import { parseAnswerType } from "../forecast/index.js";
import type { AnswerType } from "../forecast/types.js";
import { type Clock, unixSeconds } from "../util/clock.js";
import type { RecordedAnswer } from "./answer-value.js";
import { unixSecondsOf } from "./dates.js";
import { scoreForecast } from "./forecast-score.js";
import { checkedOutcome, type Outcome } from "./outcome.js";
import {
  findQuestion,
  forecastsToScore,
  insertQuestion,
  insertResolution,
  latestPredictionDate,
  listQuestions,
  questionForecasts,
  questionResolutions,
  setForecastScore,
  updateQuestionResolution,
} from "./question-records.js";
import {
  type QuestionDetail,
  type QuestionList,
  type QuestionObject,
  type QuestionRow,
  toForecastObject,
  toQuestionObject,
  toResolutionObject,
} from "./track-objects.js";

export interface QuestionInput {
  id: string;
  text?: string | null;
  answer_type: string;
  options?: Record<string, string> | null;
  resolution_date?: string | number | null;
  source?: string | null;
  tags?: string[] | null;
}

export interface QuestionListQuery {
  after?: string | undefined;
  limit: number;
  status?: QuestionStatus | undefined;
  answer_type?: string | undefined;
  source?: string | undefined;
  tag?: string | undefined;
}

export interface ResolutionInput {
  outcome?: unknown;
  annulled?: boolean | null;
  resolved_at?: string | number | null;
  force?: boolean | null;
}

/** Most forecasts a question's object lists; the scores report counts all of them. */
export const LISTED_FORECASTS = 1000;

/** A clock a few minutes ahead of this one's still counts as now. */
const CLOCK_SKEW_SECONDS = 300;

/** The track record's questions: registered ahead or made by a first forecast, then resolved. */
export class Questions {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async create(organizationId: string, input: QuestionInput): Promise<QuestionObject> {
    const answerType = concreteAnswerType(input.answer_type);
    const row: QuestionRow = {
      seq: 0,
      organization_id: organizationId,
      id: input.id,
      text: input.text ?? null,
      answer_type: answerType,
      options: input.options ? JSON.stringify(input.options) : null,
      resolution_date:
        input.resolution_date == null
          ? null
          : unixSecondsOf(input.resolution_date, "resolution_date"),
      source: input.source ?? null,
      tags: JSON.stringify([...new Set(input.tags ?? [])]),
      status: "open",
      outcome: null,
      resolved_at: null,
      created_at: unixSeconds(this.clock),
    };
    const { seq: _seq, ...values } = row;
    if (!(await insertQuestion(this.db, values))) {
      throw new ServiceError(
        "conflict",
        `A question with id '${input.id}' already exists in this organization.`,
        { code: "question_exists", param: "id" },
      );
    }
    return toQuestionObject(row);
  }

  async list(organizationId: string, query: QuestionListQuery): Promise<QuestionList> {
    let afterSeq: number | undefined;
    if (query.after !== undefined) {
      const after = await findQuestion(this.db, organizationId, query.after);
      if (!after) throw notFound("question", query.after, "after");
      afterSeq = Number(after.seq);
    }
    const rows = await listQuestions(this.db, {
      organizationId,
      afterSeq,
      limit: query.limit,
      status: query.status,
      answerType:
        query.answer_type === undefined ? undefined : concreteAnswerType(query.answer_type),
      source: query.source,
      tag: query.tag,
    });
    const data = rows.slice(0, query.limit).map(toQuestionObject);
    return listPage(data, rows.length > query.limit);
  }

  async exists(organizationId: string, id: string): Promise<boolean> {
    return (await findQuestion(this.db, organizationId, id)) !== undefined;
  }

  async retrieve(organizationId: string, id: string): Promise<QuestionDetail> {
    const row = await this.require(this.db, organizationId, id);
    const [forecasts, resolutions] = await Promise.all([
      questionForecasts(this.db, organizationId, id, LISTED_FORECASTS),
      questionResolutions(this.db, organizationId, id),
    ]);
    return {
      ...toQuestionObject(row),
      forecasts: forecasts.slice(0, LISTED_FORECASTS).map(toForecastObject),
      forecasts_truncated: forecasts.length > LISTED_FORECASTS,
      resolutions: resolutions.map(toResolutionObject),
    };
  }

  /**
   * Resolves (or annuls) the question and scores its forecasts, in one transaction. The same
   * resolution again changes nothing; another one is a 409 unless forced, and every resolution
   * given stays in the question's history.
   */
  async resolve(
    organizationId: string,
    id: string,
    input: ResolutionInput,
    recordedBy: string,
  ): Promise<QuestionDetail> {
    await this.applyResolution(organizationId, id, input, recordedBy);
    return this.retrieve(organizationId, id);
  }

  /** Resolves as `resolve` does; true when the question changed, false for the same again. */
  async applyResolution(
    organizationId: string,
    id: string,
    input: ResolutionInput,
    recordedBy: string,
  ): Promise<boolean> {
    const now = unixSeconds(this.clock);
    const resolvedAt =
      input.resolved_at == null ? now : unixSecondsOf(input.resolved_at, "resolved_at");
    if (resolvedAt > now + CLOCK_SKEW_SECONDS) {
      throw unprocessable(
        "resolved_at is in the future: a question resolves when its outcome is known.",
        "invalid_resolution_time",
        "resolved_at",
        input.resolved_at,
      );
    }
    const annulled = input.annulled === true;
    // Scores feed running totals shared by every question of the organization: two resolutions
    // at once may deadlock on PostgreSQL, and the one rolled back runs again.
    return retryOnContention(() =>
      this.db.transaction(async (tx) => {
        const question = await this.require(tx, organizationId, id, true);
        const type = question.answer_type as AnswerType;
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
              type,
              question.options ? (JSON.parse(question.options) as Record<string, string>) : null,
              input.outcome,
            );
        const status: QuestionStatus = annulled ? "annulled" : "resolved";
        const outcomeText = outcome === null ? null : JSON.stringify(outcome);
        if (question.status !== "open") {
          const same = question.status === status && question.outcome === outcomeText;
          if (same && Number(question.resolved_at) === resolvedAt) return false;
          if (!input.force) {
            throw new ServiceError(
              "conflict",
              `Question '${id}' is already ${question.status}${question.outcome === null ? "" : ` with outcome ${question.outcome}`}; send force: true (sibyl questions resolve --force) to change it.`,
              { code: "question_already_resolved", param: "outcome" },
            );
          }
        }
        const latest = await latestPredictionDate(tx, organizationId, id);
        if (latest !== null && resolvedAt < latest) {
          throw new ServiceError(
            "conflict",
            `resolved_at (${new Date(resolvedAt * 1000).toISOString()}) is before the prediction date of a forecast on this question (${new Date(latest * 1000).toISOString()}): a forecast cannot be scored against an outcome known before it was made.`,
            { code: "resolution_before_forecast", param: "resolved_at" },
          );
        }
        await updateQuestionResolution(tx, organizationId, id, {
          status,
          outcome: outcomeText,
          resolved_at: resolvedAt,
        });
        await insertResolution(tx, {
          organization_id: organizationId,
          question_id: id,
          outcome: outcomeText,
          annulled: annulled ? 1 : 0,
          resolved_at: resolvedAt,
          recorded_at: now,
          forced: question.status !== "open" ? 1 : 0,
          recorded_by: recordedBy,
        });
        for (const forecast of await forecastsToScore(tx, organizationId, id)) {
          const score = scoreForecast(
            {
              answerType: forecast.answer_type,
              answer:
                forecast.answer === null ? null : (JSON.parse(forecast.answer) as RecordedAnswer),
              predictionDate: Number(forecast.prediction_date),
            },
            { answerType: type, outcome, resolvedAt, optionLetters: optionLetters(question) },
          );
          await setForecastScore(tx, Number(forecast.seq), score);
        }
        return true;
      }),
    );
  }

  private async require(
    db: Db,
    organizationId: string,
    id: string,
    lock = false,
  ): Promise<QuestionRow> {
    const row = await findQuestion(db, organizationId, id, lock);
    if (!row) throw notFound("question", id, "question_id");
    return row;
  }
}

/** The letters of the question's options, when it has them. */
export function optionLetters(question: QuestionRow): string[] | null {
  return question.options ? Object.keys(JSON.parse(question.options) as object).sort() : null;
}

/** A question's answer type in its canonical form; `auto` names no type a question can have. */
export function concreteAnswerType(text: string): AnswerType {
  const type = parseAnswerType(text);
  if (!type || type === "auto") {
    throw unprocessable(
      `answer_type must be binary, multiple_choice, continuous, continuous_value_only or free_response; got "${text}".`,
      "invalid_answer_type",
      "answer_type",
      text,
    );
  }
  return type;
}
