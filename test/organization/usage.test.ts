import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type CompletionsEnv, MODEL, startCompletionsEnv } from "../completions/support/env.js";
import { expectErrorResponse } from "../support/http.js";
import { ManualClock } from "../support/manual-clock.js";
import type { TestOrg } from "../support/server.js";
import { call, createKey, type ListObject } from "./support/api.js";

const DAY = 86_400;
const clock = new ManualClock(Date.UTC(2025, 0, 1));
const day1 = Date.UTC(2025, 0, 1) / 1000;
const day2 = day1 + DAY;

let env: CompletionsEnv;
let org: TestOrg;
let botKey: { id: string; value: string };

interface UsageResult {
  num_model_requests: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  model: string | null;
  api_key_id: string | null;
}
interface UsagePage {
  object: "page";
  data: { object: "bucket"; start_time: number; end_time: number; results: UsageResult[] }[];
  has_more: boolean;
  next_page: string | null;
}
interface LedgerEntry {
  id: string;
  kind: string;
  amount_usd: number;
  balance_after_usd: number;
  reference: string | null;
  memo: string | null;
  created_at: number;
}

const ask = { model: MODEL, max_tokens: 100, messages: [{ role: "user" as const, content: "Q?" }] };

async function chat(apiKey: string, promptTokens: number, completionTokens: number) {
  env.fake.enqueue({ usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens } });
  await env.client(apiKey).chat.completions.create(ask);
}

async function usage(query: string): Promise<UsagePage> {
  const response = await call(
    env.server.url,
    org.apiKey,
    "GET",
    `/v1/organization/usage/completions?${query}`,
  );
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as UsagePage;
}

/*
 * Prices: $0.000001 a prompt token, $0.000002 a completion token.
 * Day 1, 01:00: the admin key 10+20 tokens twice ($0.00005 each), streamed 1+2 once ($0.000005);
 *               the bot key 5+7 ($0.000019).
 * Day 2, 02:00: the bot key 100+50 ($0.0002).
 */
beforeAll(async () => {
  env = await startCompletionsEnv({ clock });
  org = await env.org("1");
  const bot = await createKey(env.server.url, org.apiKey, { name: "bot" });
  botKey = { id: bot.id, value: bot.value };
  clock.advanceSeconds(3600);
  await chat(org.apiKey, 10, 20);
  await chat(org.apiKey, 10, 20);
  env.fake.enqueue({ usage: { prompt_tokens: 1, completion_tokens: 2 } });
  const stream = await env.client(org.apiKey).chat.completions.create({
    ...ask,
    stream: true,
    stream_options: { include_usage: true },
  });
  for await (const _chunk of stream) {
    // Drained: the charge is settled when the stream ends.
  }
  await chat(botKey.value, 5, 7);
  clock.advanceSeconds(DAY + 3600);
  await chat(botKey.value, 100, 50);
});
afterEach(() => env.fake.reset());
afterAll(async () => {
  await env.close();
});

const result = (fields: Partial<UsageResult>): UsageResult => ({
  num_model_requests: 0,
  input_tokens: 0,
  output_tokens: 0,
  cost_usd: 0,
  model: null,
  api_key_id: null,
  ...fields,
});

describe("usage by day", () => {
  it("adds up every day of the range, empty days too", async () => {
    const page = await usage(`start_time=${day1}&end_time=${day1 + 3 * DAY}`);
    expect(page).toEqual({
      object: "page",
      data: [
        {
          object: "bucket",
          start_time: day1,
          end_time: day2,
          results: [
            {
              object: "organization.usage.completions.result",
              ...result({
                num_model_requests: 4,
                input_tokens: 26,
                output_tokens: 49,
                cost_usd: 0.000124,
              }),
            },
          ],
        },
        {
          object: "bucket",
          start_time: day2,
          end_time: day2 + DAY,
          results: [
            {
              object: "organization.usage.completions.result",
              ...result({
                num_model_requests: 1,
                input_tokens: 100,
                output_tokens: 50,
                cost_usd: 0.0002,
              }),
            },
          ],
        },
        { object: "bucket", start_time: day2 + DAY, end_time: day2 + 2 * DAY, results: [] },
      ],
      has_more: false,
      next_page: null,
    });
  });

  it("groups by key and model, costliest first, and filters by key", async () => {
    const page = await usage(
      `start_time=${day1}&end_time=${day2 + DAY}&group_by=model&group_by=api_key_id`,
    );
    const strip = (results: UsageResult[]) =>
      results.map(({ object: _object, ...rest }: UsageResult & { object?: string }) => rest);
    expect(strip(page.data[0]?.results ?? [])).toEqual([
      result({
        num_model_requests: 3,
        input_tokens: 21,
        output_tokens: 42,
        cost_usd: 0.000105,
        model: MODEL,
        api_key_id: org.apiKeyId,
      }),
      result({
        num_model_requests: 1,
        input_tokens: 5,
        output_tokens: 7,
        cost_usd: 0.000019,
        model: MODEL,
        api_key_id: botKey.id,
      }),
    ]);
    const bot = await usage(
      `start_time=${day1}&end_time=${day2 + DAY}&group_by=api_key_id&api_key_ids=${botKey.id}`,
    );
    expect(bot.data.map((bucket) => bucket.results.map((r) => r.cost_usd))).toEqual([
      [0.000019],
      [0.0002],
    ]);
    const otherModel = await usage(`start_time=${day1}&end_time=${day2 + DAY}&models=other`);
    expect(otherModel.data.every((bucket) => bucket.results.length === 0)).toBe(true);
  });

  it("starts the first bucket at start_time and pages by day", async () => {
    const first = await usage(`start_time=${day1 + 7200}&end_time=${day2 + DAY}&limit=1`);
    expect(first.data).toEqual([
      { object: "bucket", start_time: day1 + 7200, end_time: day2, results: [] },
    ]);
    expect(first).toMatchObject({ has_more: true, next_page: String(day2) });
    const second = await usage(
      `start_time=${day1 + 7200}&end_time=${day2 + DAY}&limit=1&page=${first.next_page}`,
    );
    expect(second.data.map((bucket) => bucket.results[0]?.num_model_requests)).toEqual([1]);
    expect(second).toMatchObject({ has_more: false, next_page: null });
  });

  it("refuses a range that ends before it starts, a foreign page and other widths", async () => {
    const base = "/v1/organization/usage/completions";
    const backwards = await call(
      env.server.url,
      org.apiKey,
      "GET",
      `${base}?start_time=${day2}&end_time=${day1}`,
    );
    expectErrorResponse(backwards, { status: 400, code: "invalid_time_range" });
    const page = await call(env.server.url, org.apiKey, "GET", `${base}?start_time=${day1}&page=x`);
    expectErrorResponse(page, { status: 400, code: "invalid_usage_page", param: "page" });
    for (const query of ["bucket_width=1h", "group_by=user_id", "limit=32", ""]) {
      const response = await call(
        env.server.url,
        org.apiKey,
        "GET",
        `${base}?start_time=${day1}&${query}`.replace(/start_time=\d+&$/, ""),
      );
      expect(response.status, query).toBe(422);
    }
  });
});

describe("the ledger", () => {
  it("lists the top-up and each charge newest first, in pages", async () => {
    const path = "/v1/organization/ledger";
    const all = (await call(env.server.url, org.apiKey, "GET", `${path}?limit=100`))
      .body as ListObject<LedgerEntry>;
    expect(all.data.map((entry) => [entry.kind, entry.amount_usd, entry.memo])).toEqual([
      ["charge", -0.0002, MODEL],
      ["charge", -0.000019, MODEL],
      ["charge", -0.000005, MODEL],
      ["charge", -0.00005, MODEL],
      ["charge", -0.00005, MODEL],
      ["topup", 1, null],
    ]);
    expect(all.data[0]).toMatchObject({
      object: "organization.ledger_entry",
      id: expect.stringMatching(/^le_[0-9A-Za-z]{22}$/),
      balance_after_usd: 0.999676,
      created_at: day2 + 7200,
      reference: expect.stringMatching(/^chatcmpl-/),
    });

    const first = (await call(env.server.url, org.apiKey, "GET", `${path}?limit=4`))
      .body as ListObject<LedgerEntry>;
    expect(first.data.map((entry) => entry.id)).toEqual(all.data.slice(0, 4).map((e) => e.id));
    expect(first.has_more).toBe(true);
    const rest = (await call(env.server.url, org.apiKey, "GET", `${path}?after=${first.last_id}`))
      .body as ListObject<LedgerEntry>;
    expect(rest.data.map((entry) => entry.id)).toEqual(all.data.slice(4).map((e) => e.id));
    expect(rest.has_more).toBe(false);

    const topups = (await call(env.server.url, org.apiKey, "GET", `${path}?kind=topup`))
      .body as ListObject<LedgerEntry>;
    expect(topups.data.map((entry) => entry.amount_usd)).toEqual([1]);
  });

  it("answers an after naming another organization's entry like an unknown one (404)", async () => {
    const stranger = await env.org("1");
    const theirs = (await call(env.server.url, stranger.apiKey, "GET", "/v1/organization/ledger"))
      .body as ListObject<LedgerEntry>;
    for (const after of [theirs.first_id, `le_${"0".repeat(22)}`, "nonsense"]) {
      const response = await call(
        env.server.url,
        org.apiKey,
        "GET",
        `/v1/organization/ledger?after=${after}`,
      );
      expectErrorResponse(response, {
        status: 404,
        code: "ledger_entry_not_found",
        param: "after",
      });
    }
  });
});
