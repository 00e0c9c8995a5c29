/**
 * The track record's score report: 100,000 resolved forecasts of one organization (5 models,
 * 4 keys, 2,000 questions with 2 tags each), then `GET /v1/scores` through the real HTTP server,
 * grouped by model, API key and tag, on SQLite and on PostgreSQL. Target: p50 under 50 ms.
 */

import { scoreForecast } from "../src/track/forecast-score.js";
import { newId } from "../src/util/ids.js";
import { createTestDatabase } from "../test/support/postgres.js";
import { startTestServer, type TestServer } from "../test/support/server.js";
import { quantile } from "./stats.js";

const FORECASTS = 100_000;
const QUESTIONS = 2_000;
const MODELS = ["model-a", "model-b", "model-c", "model-d", "model-e"];
const TAGS = ["economy", "politics", "sports", "science", "markets", "weather", "tech", "health"];
const REQUESTS = 60;
const WARMUP_REQUESTS = 5;
const P50_TARGET_MS = 50;
const INSERT_CHUNK = 500;
const DAY = 86_400;
const FIRST_DAY = Date.UTC(2024, 0, 1) / 1000;

/** A deterministic pseudo-random sequence, so both databases hold the same record. */
function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

export async function fill(server: TestServer): Promise<string> {
  const org = await server.createOrg("0");
  const keys = [org.apiKeyId, "key_b", "key_c", "key_d"];
  const db = server.services.database.db;
  const random = generator(7);
  const outcomes: number[] = [];
  const questions = [];
  const tags = [];
  for (let index = 0; index < QUESTIONS; index++) {
    const id = `bench-${index}`;
    const outcome = random() < 0.4 ? 1 : 0;
    outcomes.push(outcome);
    const own = [
      TAGS[index % TAGS.length] as string,
      TAGS[(index * 3 + 1) % TAGS.length] as string,
    ];
    questions.push({
      organization_id: org.organizationId,
      id,
      text: `Question ${index}?`,
      answer_type: "binary",
      options: null,
      resolution_date: null,
      source: "bench",
      tags: JSON.stringify([...new Set(own)]),
      status: "resolved" as const,
      outcome: JSON.stringify(outcome),
      resolved_at: FIRST_DAY + 400 * DAY,
      created_at: FIRST_DAY,
    });
    for (const tag of new Set(own)) {
      tags.push({ organization_id: org.organizationId, question_id: id, tag });
    }
  }
  for (let start = 0; start < questions.length; start += INSERT_CHUNK) {
    await db.query
      .insertInto("questions")
      .values(questions.slice(start, start + INSERT_CHUNK))
      .execute();
  }
  for (let start = 0; start < tags.length; start += INSERT_CHUNK) {
    await db.query
      .insertInto("question_tags")
      .values(tags.slice(start, start + INSERT_CHUNK))
      .execute();
  }
  let rows = [];
  for (let index = 0; index < FORECASTS; index++) {
    const question = index % QUESTIONS;
    const outcome = outcomes[question] as number;
    const probability = Math.round(random() * 1000) / 1000;
    const predictionDate = FIRST_DAY + Math.floor(random() * 365) * DAY;
    const score = scoreForecast(
      { answerType: "binary", answer: probability, predictionDate },
      { answerType: "binary", outcome, resolvedAt: FIRST_DAY + 400 * DAY, optionLetters: null },
    );
    rows.push({
      id: newId("fcst_"),
      organization_id: org.organizationId,
      question_id: `bench-${question}`,
      model: MODELS[index % MODELS.length] as string,
      api_key_id: keys[index % keys.length] as string,
      answer_type: "binary",
      answer: JSON.stringify(probability),
      prediction_date: predictionDate,
      request_id: newId("req_", 20),
      cost_nanos: 1_000,
      created_at: predictionDate,
      ...score,
    });
    if (rows.length === INSERT_CHUNK) {
      await db.query.insertInto("forecasts").values(rows).execute();
      rows = [];
    }
  }
  if (rows.length > 0) await db.query.insertInto("forecasts").values(rows).execute();
  return org.apiKey;
}

async function measure(server: TestServer, apiKey: string, query: string): Promise<number[]> {
  const times: number[] = [];
  for (let index = 0; index < WARMUP_REQUESTS + REQUESTS; index++) {
    const started = performance.now();
    const response = await fetch(`${server.url}/v1/scores?${query}`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    const body = (await response.json()) as { data: { binary: { n: number } }[] };
    if (response.status !== 200 || body.data.length === 0) {
      throw new Error(`GET /v1/scores?${query} answered ${response.status}`);
    }
    if (index >= WARMUP_REQUESTS) times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

export async function benchScores(): Promise<{ passed: boolean }> {
  let passed = true;
  console.log(`GET /v1/scores over ${FORECASTS} resolved forecasts, ${REQUESTS} requests each`);
  console.log("                               p50 ms   p99 ms   max ms");
  for (const databaseName of ["sqlite", "postgres"] as const) {
    const database =
      databaseName === "postgres" ? await createTestDatabase({ durable: true }) : null;
    const server = await startTestServer(database ? { databaseUrl: database.url } : {});
    try {
      const filling = performance.now();
      const apiKey = await fill(server);
      console.log(
        `${databaseName}: ${FORECASTS} forecasts written in ${((performance.now() - filling) / 1000).toFixed(1)} s`,
      );
      for (const query of [
        "group_by=model",
        "group_by=api_key",
        "group_by=tag",
        "group_by=model&from=2024-06-01&to=2024-09-01",
      ]) {
        const times = await measure(server, apiKey, query);
        const p50 = quantile(times, 0.5);
        passed &&= p50 < P50_TARGET_MS;
        console.log(
          `${`${databaseName} ${query}`.padEnd(30)} ${p50.toFixed(1).padStart(7)} ${quantile(times, 0.99).toFixed(1).padStart(8)} ${(times.at(-1) ?? 0).toFixed(1).padStart(8)}`,
        );
      }
    } finally {
      await server.close();
      await database?.drop();
    }
  }
  console.log(
    `target: p50 under ${P50_TARGET_MS} ms on both databases: ${passed ? "pass" : "FAIL"}`,
  );
  return { passed };
}
