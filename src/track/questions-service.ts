import { retryOnContention } from "../cluster/database-outage.js";
import type { Db } from "../db/database.js";
import { listPage } from "../db/list-pages.js";
import type { QuestionStatus } from "../db/schema.js";
import { notFound, ServiceError, unprocessable } from "../errors.js";
import { parseAnswerType } from "../forecast/index.js";
import type { AnswerType } from "../forecast/types.js";
import { type Clock, unixSeconds } from "../util/clock.js";
import { unixSecondsOf } from "./dates.js";
import {
  findQuestion,
  insertQuestion,
  listQuestions,
  questionForecasts,
  questionResolutions,
} from "./question-records.js";
import {
  assertAfterForecasts,
  changesQuestion,
  type ResolutionInput,
  recordResolution,
  resolutionOf,
  resolutionTime,
  scoreForecasts,
} from "./resolution-steps.js";
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
    const resolvedAt = resolutionTime(input, now, CLOCK_SKEW_SECONDS);
    // Scores feed running totals shared by every question of the organization: two resolutions
    // at once may deadlock on PostgreSQL, and the one rolled back runs again.
    return retryOnContention(() =>
      this.db.transaction(async (tx) => {
        const question = await this.require(tx, organizationId, id, true);
        const resolution = resolutionOf(question, input, resolvedAt);
        if (!changesQuestion(question, resolution, input.force === true)) return false;
        await assertAfterForecasts(tx, organizationId, id, resolvedAt);
        await recordResolution(tx, question, resolution, { at: now, by: recordedBy });
        await scoreForecasts(tx, question, resolution);
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
