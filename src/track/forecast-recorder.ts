import type { ForecastEntry, ForecastLog } from "../completions/forecast-log.js";
import type { Db } from "../db/database.js";
import { invalidRequest } from "../errors.js";
import type { RequestedAnswerType } from "../forecast/types.js";
import { newId } from "../util/ids.js";
import { recordedAnswer, recordedRawAnswer } from "./answer-value.js";
import { scoreForecast, UNSCORED } from "./forecast-score.js";
import type { Outcome } from "./outcome.js";
import { findQuestion, insertForecast, insertQuestion } from "./question-records.js";
import { optionLetters } from "./track-objects.js";

export interface RecorderLog {
  error(details: Record<string, unknown>, message: string): void;
}

/**
 * Keeps the forecasts of requests that name a `question_id`: a first forecast registers its
 * question, and a forecast on a question already resolved is scored at once (a backtest's,
 * dated before the outcome).
 */
export class ForecastRecorder implements ForecastLog {
  constructor(
    private readonly db: Db,
    private readonly log: RecorderLog,
  ) {}

  async admit(
    organizationId: string,
    questionId: string,
    requested: RequestedAnswerType,
  ): Promise<void> {
    if (requested === "auto") return;
    const question = await findQuestion(this.db, organizationId, questionId);
    if (question && question.answer_type !== requested) {
      throw invalidRequest(
        `Question '${questionId}' is a ${question.answer_type} question; this request asks for a ${requested} answer.`,
        "question_answer_type_mismatch",
        "answer_type",
      );
    }
  }

  async record(db: Db, entry: ForecastEntry): Promise<void> {
    await db.transaction(async (tx) => {
      await insertQuestion(tx, {
        organization_id: entry.organizationId,
        id: entry.questionId,
        text: entry.question || null,
        answer_type: entry.answerType,
        options: entry.options ? JSON.stringify(entry.options) : null,
        resolution_date: null,
        source: null,
        tags: "[]",
        status: "open",
        outcome: null,
        resolved_at: null,
        created_at: entry.createdAt,
      });
      // Locked: a resolution running now scores this forecast, or this forecast sees it.
      const question = await findQuestion(tx, entry.organizationId, entry.questionId, true);
      const answer = recordedAnswer(entry.answerType, entry.content);
      const rawAnswer =
        entry.calibration && recordedRawAnswer(entry.answerType, entry.calibration.rawAnswer);
      const score =
        question?.status === "resolved" && question.outcome !== null
          ? scoreForecast(
              { answerType: entry.answerType, answer, predictionDate: entry.predictionDate },
              {
                answerType: question.answer_type as ForecastEntry["answerType"],
                outcome: JSON.parse(question.outcome) as Outcome,
                resolvedAt: Number(question.resolved_at),
                optionLetters: optionLetters(question),
              },
            )
          : UNSCORED;
      await insertForecast(tx, {
        id: newId("fcst_"),
        organization_id: entry.organizationId,
        question_id: entry.questionId,
        model: entry.model,
        api_key_id: entry.apiKeyId,
        answer_type: entry.answerType,
        answer: answer === null ? null : JSON.stringify(answer),
        raw_answer: rawAnswer === null ? null : JSON.stringify(rawAnswer),
        calibration_id: entry.calibration?.id ?? null,
        prediction_date: entry.predictionDate,
        request_id: entry.requestId,
        cost_nanos: entry.costNanos,
        created_at: entry.createdAt,
        ...score,
      });
    });
  }

  async recordCharged(entry: ForecastEntry): Promise<void> {
    try {
      await this.record(this.db, entry);
    } catch (error) {
      // The request is paid and its reply ready: losing the reply would cost more than the entry.
      this.log.error(
        { err: error, question_id: entry.questionId, request_id: entry.requestId },
        "a forecast could not be recorded in the track record",
      );
    }
  }
}
