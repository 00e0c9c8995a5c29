import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scoreForecast, UNSCORED } from "../../src/track/forecast-score.js";
import { setForecastScore } from "../../src/track/question-records.js";
import { reportSums, type ScoreBucket } from "../../src/track/report-sums.js";
import { monthStart, weekStart } from "../../src/track/score-periods.js";
import { forecastSums, type ScoreGrouping, type ScoreSums } from "../../src/track/score-records.js";
import { newId } from "../../src/util/ids.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { DATABASES } from "./support/databases.js";

const DAY = 86_400;
const START = Date.UTC(2024, 0, 20) / 1000;
const SPAN = 75 * DAY;
const TAGS = ["a", "b", "c"];

const questionArb = fc.record({
  type: fc.constantFrom("binary", "multiple_choice"),
  outcome: fc.boolean(),
  tags: fc.subarray(TAGS),
  /** Rescored later with the other outcome, annulled, or left as resolved. */
  change: fc.constantFrom("none", "flip", "annul"),
});
const forecastArb = fc.record({
  question: fc.nat(),
  model: fc.constantFrom("m1", "m2"),
  key: fc.constantFrom(null, "k1", "k2"),
  probability: fc.option(fc.integer({ min: 0, max: 1000 }), { nil: null }),
  // Unbiased: dates anywhere in the span, so that ranges cut days and months with forecasts in.
  date: fc.noBias(fc.integer({ min: 0, max: SPAN })),
});
const dateArb = fc.option(fc.noBias(fc.integer({ min: -5 * DAY, max: SPAN + 5 * DAY })), {
  nil: null,
});
const worldArb = fc.record({
  questions: fc.array(questionArb, { minLength: 1, maxLength: 5 }),
  forecasts: fc.array(forecastArb, { minLength: 10, maxLength: 60 }),
  groupBy: fc.constantFrom<ScoreGrouping>("model", "api_key", "tag"),
  from: dateArb,
  to: dateArb,
  bucket: fc.constantFrom<ScoreBucket | null>(null, "week", "month"),
});
type World = typeof worldArb extends fc.Arbitrary<infer T> ? T : never;

function outcomeOf(type: string, yes: boolean): number | string {
  if (type === "binary") return yes ? 1 : 0;
  return yes ? "A" : "B";
}

/** Writes the world's questions and forecasts, then rescores or annuls some as resolution does. */
async function write(server: TestServer, organizationId: string, world: World): Promise<void> {
  const db = server.services.database.db;
  for (const [index, question] of world.questions.entries()) {
    await db.query
      .insertInto("questions")
      .values({
        organization_id: organizationId,
        id: `q${index}`,
        text: "?",
        answer_type: question.type,
        options: null,
        resolution_date: null,
        source: "property",
        tags: JSON.stringify(question.tags),
        status: "resolved",
        outcome: JSON.stringify(outcomeOf(question.type, question.outcome)),
        resolved_at: START + SPAN,
        created_at: START,
      })
      .execute();
    for (const tag of question.tags) {
      await db.query
        .insertInto("question_tags")
        .values({ organization_id: organizationId, question_id: `q${index}`, tag })
        .execute();
    }
  }
  const resolution = (type: string, yes: boolean) => ({
    answerType: type as "binary",
    outcome: outcomeOf(type, yes),
    resolvedAt: START + SPAN,
    optionLetters: ["A", "B"],
  });
  const written: { seq: number; question: World["questions"][number]; forecast: object }[] = [];
  for (const forecast of world.forecasts) {
    const question = world.questions[forecast.question % world.questions.length];
    if (question === undefined) throw new Error("no question");
    const p = forecast.probability === null ? null : forecast.probability / 1000;
    const answer = p === null ? null : question.type === "binary" ? p : { A: p, B: 1 - p };
    const scoring = { answerType: question.type, answer, predictionDate: START + forecast.date };
    const row = await db.query
      .insertInto("forecasts")
      .values({
        id: newId("fcst_"),
        organization_id: organizationId,
        question_id: `q${forecast.question % world.questions.length}`,
        model: forecast.model,
        api_key_id: forecast.key,
        answer_type: question.type,
        answer: JSON.stringify(answer),
        prediction_date: START + forecast.date,
        request_id: newId("req_", 20),
        cost_nanos: 0,
        created_at: START + forecast.date,
        ...scoreForecast(scoring, resolution(question.type, question.outcome)),
      })
      .returning("seq")
      .executeTakeFirstOrThrow();
    written.push({ seq: Number(row.seq), question, forecast: scoring });
  }
  for (const { seq, question, forecast } of written) {
    if (question.change === "none") continue;
    const score =
      question.change === "annul"
        ? UNSCORED
        : scoreForecast(
            forecast as Parameters<typeof scoreForecast>[0],
            resolution(question.type, !question.outcome),
          );
    await setForecastScore(db, seq, score);
  }
}

/** The one-pass sums over the forecasts, bucketed as a report by period would be. */
async function reference(
  server: TestServer,
  organizationId: string,
  world: World,
  range: { from: number | null; to: number | null },
): Promise<ScoreSums[]> {
  const rows = await forecastSums(server.services.database.db, {
    organizationId,
    groupBy: world.groupBy,
    ...range,
    byDate: world.bucket !== null,
  });
  const bucketOf = world.bucket === "week" ? weekStart : monthStart;
  const merged = new Map<string, ScoreSums>();
  for (const row of rows) {
    const start = row.period_start === null ? null : bucketOf(row.period_start);
    const key = JSON.stringify([row.grp, row.answer_type, row.calibration_bin, start]);
    const into = merged.get(key) ?? { ...row, period_start: start, n: 0, imputed: 0 };
    if (!merged.has(key)) {
      for (const column of [
        "brier",
        "log_score",
        "crps",
        "probability",
        "outcome_value",
      ] as const) {
        into[column] = 0;
      }
    }
    into.n += row.n;
    into.imputed += row.imputed;
    for (const column of ["brier", "log_score", "crps", "probability", "outcome_value"] as const) {
      into[column] = (into[column] ?? 0) + (row[column] ?? 0);
    }
    merged.set(key, into);
  }
  return [...merged.values()];
}

/** Rows in one order, with every sum rounded past the last digits that addition order moves. */
function comparable(rows: ScoreSums[]) {
  return rows
    .map((row) => ({
      ...row,
      brier: Number((row.brier ?? 0).toFixed(9)),
      log_score: Number((row.log_score ?? 0).toFixed(9)),
      crps: Number((row.crps ?? 0).toFixed(9)),
      probability: Number((row.probability ?? 0).toFixed(9)),
      outcome_value: Number((row.outcome_value ?? 0).toFixed(9)),
    }))
    .sort((a, b) =>
      JSON.stringify([a.grp, a.answer_type, a.calibration_bin, a.period_start]).localeCompare(
        JSON.stringify([b.grp, b.answer_type, b.calibration_bin, b.period_start]),
      ),
    );
}

describe.each(DATABASES)("score totals against the forecasts (%s)", (databaseName) => {
  let database: TestDatabase | null = null;
  let server: TestServer;

  beforeAll(async () => {
    if (databaseName === "postgres") database = await createTestDatabase();
    server = await startTestServer(database ? { databaseUrl: database.url } : {});
  });
  afterAll(async () => {
    await server.close();
    await database?.drop();
  });

  it("a report from the running totals adds up to the one-pass sums over the forecasts, after rescoring and annulment, for any range and bucket", async () => {
    await fc.assert(
      fc.asyncProperty(worldArb, async (world) => {
        const org = await server.createOrg();
        await write(server, org.organizationId, world);
        const range = {
          from: world.from === null ? null : START + world.from,
          to: world.to === null ? null : START + world.to,
        };
        if (range.from !== null && range.to !== null && range.to <= range.from) return;
        const fast = await reportSums(
          server.services.database.db,
          org.organizationId,
          world.groupBy,
          range,
          world.bucket,
        );
        const slow = await reference(server, org.organizationId, world, range);
        expect(comparable(fast)).toEqual(comparable(slow));
      }),
      { numRuns: 60 },
    );
    // Sixty organizations of forecasts, each written row by row through the triggers.
  }, 180_000);
});
