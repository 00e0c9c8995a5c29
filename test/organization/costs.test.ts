import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type CompletionsEnv,
  MODEL,
  startCompletionsEnv,
  upstreamModel,
} from "../completions/support/env.js";
import { BOTH_DATABASES } from "../support/databases.js";
import { expectErrorResponse } from "../support/http.js";
import { ManualClock } from "../support/manual-clock.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import type { TestOrg } from "../support/server.js";
import { call, createKey } from "./support/api.js";

const DAY = 86_400;
const OTHER = "other-model";
const day1 = Date.UTC(2025, 2, 1) / 1000;
const day2 = day1 + DAY;

interface CostResult {
  object: "organization.costs.result";
  amount: { value: number; currency: "usd" };
  line_item: string | null;
  project_id: null;
  model: string | null;
  api_key_id: string | null;
}
interface CostsPage {
  object: "page";
  data: { object: "bucket"; start_time: number; end_time: number; results: CostResult[] }[];
  has_more: boolean;
  next_page: string | null;
}

/*
 * Prices: $0.000001 a prompt token, $0.000002 a completion token, for both models.
 * Day 1, 01:00: the admin key asks test-model 10+20 tokens ($0.00005), the bot other-model 5+5
 *               ($0.000015). Day 2, 02:00: the bot asks test-model 100+50 ($0.0002).
 */
describe.each(BOTH_DATABASES)("organization costs on $name", (kind) => {
  const clock = new ManualClock(day1 * 1000);
  let env: CompletionsEnv;
  let postgres: TestDatabase | null = null;
  let org: TestOrg;
  let botId: string;

  async function ask(apiKey: string, model: string, prompt: number, completion: number) {
    env.fake.enqueue({ usage: { prompt_tokens: prompt, completion_tokens: completion } });
    await env.client(apiKey).chat.completions.create({
      model,
      max_tokens: 200,
      messages: [{ role: "user", content: "Q?" }],
    });
  }

  beforeAll(async () => {
    postgres = kind.name === "postgres" ? await createTestDatabase() : null;
    env = await startCompletionsEnv({
      clock,
      models: (url) => [upstreamModel(url, { id: OTHER })],
      ...(postgres ? { databaseUrl: postgres.url } : {}),
    });
    org = await env.org("1");
    const bot = await createKey(env.server.url, org.apiKey, { name: "bot" });
    botId = bot.id;
    clock.advanceSeconds(3600);
    await ask(org.apiKey, MODEL, 10, 20);
    await ask(bot.value, OTHER, 5, 5);
    clock.advanceSeconds(DAY + 3600);
    await ask(bot.value, MODEL, 100, 50);
  });
  afterAll(async () => {
    await env?.close();
    await postgres?.drop();
  });

  async function costs(query: string, apiKey = org.apiKey): Promise<CostsPage> {
    const response = await call(env.server.url, apiKey, "GET", `/v1/organization/costs?${query}`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body as CostsPage;
  }

  const amounts = (page: CostsPage) =>
    page.data.map((bucket) => bucket.results.map((result) => result.amount.value));

  it("lists every day of the range with its total in OpenAI's shape", async () => {
    const page = await costs(`start_time=${day1}&end_time=${day2 + 2 * DAY}`);
    expect(page).toMatchObject({ object: "page", has_more: false, next_page: null });
    expect(page.data.map((bucket) => [bucket.start_time, bucket.end_time])).toEqual([
      [day1, day2],
      [day2, day2 + DAY],
      [day2 + DAY, day2 + 2 * DAY],
    ]);
    expect(page.data[0]?.results).toEqual([
      {
        object: "organization.costs.result",
        amount: { value: 0.000065, currency: "usd" },
        line_item: null,
        project_id: null,
        model: null,
        api_key_id: null,
      },
    ]);
    expect(amounts(page)).toEqual([[0.000065], [0.0002], []]);
  });

  it("groups by line item (each charge's model), by key and by model", async () => {
    const range = `start_time=${day1}&end_time=${day2 + DAY}`;
    const byItem = await costs(`${range}&group_by=line_item`);
    expect(byItem.data[0]?.results.map((r) => [r.line_item, r.amount.value])).toEqual([
      [MODEL, 0.00005],
      [OTHER, 0.000015],
    ]);
    expect(byItem.data[1]?.results.map((r) => [r.line_item, r.amount.value])).toEqual([
      [MODEL, 0.0002],
    ]);

    const byKey = await costs(`${range}&group_by=api_key_id`);
    expect(byKey.data[0]?.results.map((r) => [r.api_key_id, r.amount.value])).toEqual([
      [org.apiKeyId, 0.00005],
      [botId, 0.000015],
    ]);
    const both = await costs(`${range}&group_by=model&group_by=api_key_id`);
    expect(both.data[1]?.results).toEqual([
      expect.objectContaining({ model: MODEL, api_key_id: botId, line_item: null }),
    ]);
  });

  it("pages by days with next_page", async () => {
    const first = await costs(`start_time=${day1 + 7200}&end_time=${day2 + DAY}&limit=1`);
    expect(first.data).toHaveLength(1);
    expect(first.data[0]?.start_time).toBe(day1 + 7200);
    expect(first).toMatchObject({ has_more: true, next_page: String(day2) });
    const second = await costs(
      `start_time=${day1 + 7200}&end_time=${day2 + DAY}&limit=1&page=${first.next_page}`,
    );
    expect(amounts(second)).toEqual([[0.0002]]);
    expect(second.has_more).toBe(false);
  });

  it("shows another organization nothing of these costs", async () => {
    const stranger = await env.org("1");
    const page = await costs(`start_time=${day1}&end_time=${day2 + DAY}`, stranger.apiKey);
    expect(amounts(page)).toEqual([[], []]);
  });

  it("answers bad queries with a clear 4xx", async () => {
    const cases: [string, number, string | null][] = [
      ["", 422, null],
      [`start_time=${day1}&bucket_width=1h`, 422, null],
      [`start_time=${day1}&group_by=project_id`, 422, null],
      [`start_time=${day1}&limit=181`, 422, null],
      [`start_time=-1`, 422, null],
      [`start_time=soon`, 422, null],
      [`start_time=${day1}&group_by=line_item&group_by=model`, 400, "unsupported_group_by"],
      [`start_time=${day2}&end_time=${day1}`, 400, "invalid_time_range"],
      [`start_time=${day1}&end_time=${day2 + DAY}&page=abc`, 400, "invalid_usage_page"],
      [`start_time=${day1}&end_time=${day2 + DAY}&page=${day1}`, 400, "invalid_usage_page"],
    ];
    for (const [query, status, code] of cases) {
      const response = await call(
        env.server.url,
        org.apiKey,
        "GET",
        `/v1/organization/costs?${query}`,
      );
      expect(response.status, query).toBe(status);
      if (code) expectErrorResponse(response, { status, code });
    }
  });
});
