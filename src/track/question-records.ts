import { sql } from "kysely";
import type { Db } from "../db/database.js";
import type { QuestionStatus } from "../db/schema.js";
import type { ForecastScore } from "./forecast-score.js";
import type { ForecastRow, QuestionRow, ResolutionRow } from "./track-objects.js";

export type NewQuestion = Omit<QuestionRow, "seq">;
export type NewForecast = Omit<ForecastRow, "seq" | "scored"> & { scored: number };
export type NewResolution = Omit<ResolutionRow, "seq">;

/** Inserts the question and its tags; false when the organization already has one by that id. */
export async function insertQuestion(db: Db, row: NewQuestion): Promise<boolean> {
  return db.transaction(async (tx) => {
    const inserted = await tx.query
      .insertInto("questions")
      .values(row)
      .onConflict((conflict) => conflict.columns(["organization_id", "id"]).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 0) return false;
    const tags = JSON.parse(row.tags) as string[];
    if (tags.length > 0) {
      await tx.query
        .insertInto("question_tags")
        .values(
          tags.map((tag) => ({ organization_id: row.organization_id, question_id: row.id, tag })),
        )
        .execute();
    }
    return true;
  });
}

/** The question, locked for the transaction's resolution on PostgreSQL. */
export async function findQuestion(
  db: Db,
  organizationId: string,
  id: string,
  lock = false,
): Promise<QuestionRow | undefined> {
  return db.query
    .selectFrom("questions")
    .selectAll()
    .where("organization_id", "=", organizationId)
    .where("id", "=", id)
    .$if(lock && db.dialect === "postgres", (q) => q.forUpdate())
    .executeTakeFirst();
}

export interface QuestionPageQuery {
  organizationId: string;
  afterSeq: number | undefined;
  limit: number;
  status: QuestionStatus | undefined;
  answerType: string | undefined;
  source: string | undefined;
  tag: string | undefined;
}

/** Newest first, `limit + 1` rows so the caller can tell whether more follow. */
export async function listQuestions(db: Db, query: QuestionPageQuery): Promise<QuestionRow[]> {
  const { afterSeq, status, answerType, source, tag } = query;
  return db.query
    .selectFrom("questions")
    .selectAll()
    .where("organization_id", "=", query.organizationId)
    .$if(afterSeq !== undefined, (q) => q.where("seq", "<", afterSeq ?? 0))
    .$if(status !== undefined, (q) => q.where("status", "=", status as QuestionStatus))
    .$if(answerType !== undefined, (q) => q.where("answer_type", "=", answerType as string))
    .$if(source !== undefined, (q) => q.where("source", "=", source as string))
    .$if(tag !== undefined, (q) =>
      q.where((eb) =>
        eb.exists(
          eb
            .selectFrom("question_tags")
            .select(sql.lit(1).as("one"))
            .whereRef("question_tags.organization_id", "=", "questions.organization_id")
            .whereRef("question_tags.question_id", "=", "questions.id")
            .where("question_tags.tag", "=", tag as string),
        ),
      ),
    )
    .orderBy("seq", "desc")
    .limit(query.limit + 1)
    .execute();
}

export async function updateQuestionResolution(
  db: Db,
  organizationId: string,
  id: string,
  change: { status: QuestionStatus; outcome: string | null; resolved_at: number },
): Promise<void> {
  await db.query
    .updateTable("questions")
    .set(change)
    .where("organization_id", "=", organizationId)
    .where("id", "=", id)
    .execute();
}

export async function insertResolution(db: Db, row: NewResolution): Promise<void> {
  await db.query.insertInto("question_resolutions").values(row).execute();
}

export async function questionResolutions(
  db: Db,
  organizationId: string,
  questionId: string,
): Promise<ResolutionRow[]> {
  return db.query
    .selectFrom("question_resolutions")
    .selectAll()
    .where("organization_id", "=", organizationId)
    .where("question_id", "=", questionId)
    .orderBy("seq", "asc")
    .execute();
}

export async function insertForecast(db: Db, row: NewForecast): Promise<void> {
  await db.query.insertInto("forecasts").values(row).execute();
}

/** The question's forecasts, earliest first, `limit + 1` of them at most. */
export async function questionForecasts(
  db: Db,
  organizationId: string,
  questionId: string,
  limit: number,
): Promise<ForecastRow[]> {
  return db.query
    .selectFrom("forecasts")
    .selectAll()
    .where("organization_id", "=", organizationId)
    .where("question_id", "=", questionId)
    .orderBy("seq", "asc")
    .limit(limit + 1)
    .execute();
}

/** What rescoring a question's forecasts needs, for all of them. */
export async function forecastsToScore(
  db: Db,
  organizationId: string,
  questionId: string,
): Promise<Pick<ForecastRow, "seq" | "answer_type" | "answer" | "prediction_date">[]> {
  return db.query
    .selectFrom("forecasts")
    .select(["seq", "answer_type", "answer", "prediction_date"])
    .where("organization_id", "=", organizationId)
    .where("question_id", "=", questionId)
    .execute();
}

/** The latest prediction date among the question's forecasts, or null without any. */
export async function latestPredictionDate(
  db: Db,
  organizationId: string,
  questionId: string,
): Promise<number | null> {
  const row = await db.query
    .selectFrom("forecasts")
    .select((eb) => eb.fn.max("prediction_date").as("latest"))
    .where("organization_id", "=", organizationId)
    .where("question_id", "=", questionId)
    .executeTakeFirst();
  return row?.latest === null || row?.latest === undefined ? null : Number(row.latest);
}

export async function setForecastScore(db: Db, seq: number, score: ForecastScore): Promise<void> {
  await db.query.updateTable("forecasts").set(score).where("seq", "=", seq).execute();
}
