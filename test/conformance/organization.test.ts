import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ConformanceEnv, call, type Json, MODEL, startConformanceEnv } from "./support/env.js";
import { openAISchemas } from "./support/openai-schemas.js";

const schemas = openAISchemas();
const CHAT = { model: MODEL, messages: [{ role: "user", content: "Will it rain tomorrow?" }] };

describe("the organization's usage and costs match OpenAI's UsageResponse", () => {
  let env: ConformanceEnv;
  let apiKey: string;
  const since = Math.floor(Date.now() / 1000) - 86_400;

  beforeAll(async () => {
    env = await startConformanceEnv();
    apiKey = (await env.org("5")).apiKey;
    env.fake.setDefault({ contents: ["Likely. Probability: 70%."] });
    const answered = await call(env, "POST", "/v1/chat/completions", apiKey, CHAT);
    expect(answered.status, answered.text).toBe(200);
  });
  afterAll(async () => {
    await env?.close();
  });

  async function page(path: string, key = apiKey): Promise<Json> {
    const response = await call(env, "GET", path, key);
    expect(response.status, response.text).toBe(200);
    schemas.assertConforms("UsageResponse", response.json(), `GET ${path}`);
    return response.json();
  }

  const results = (body: Json) =>
    (body.data as { results: Json[] }[]).flatMap((bucket) => bucket.results);

  it("usage of completions, whole and grouped by model and key", async () => {
    for (const query of ["", "&group_by=model", "&group_by=model&group_by=api_key_id"]) {
      const body = await page(`/v1/organization/usage/completions?start_time=${since}${query}`);
      expect(results(body).length).toBeGreaterThan(0);
    }
  });

  it("costs, whole and grouped by line item, model and key", async () => {
    for (const query of ["", "&group_by=line_item", "&group_by=model", "&group_by=api_key_id"]) {
      const body = await page(`/v1/organization/costs?start_time=${since}${query}`);
      expect(results(body).length).toBeGreaterThan(0);
    }
  });

  it("a page with more to come, and an organization with nothing used", async () => {
    const first = await page(`/v1/organization/costs?start_time=${since - 5 * 86_400}&limit=1`);
    expect(first.has_more).toBe(true);
    expect(first.next_page).toBeTypeOf("string");
    const { apiKey: fresh } = await env.org("1");
    const usage = await page(`/v1/organization/usage/completions?start_time=${since}`, fresh);
    expect(results(usage)).toEqual([]);
  });
});
