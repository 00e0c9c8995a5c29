import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type CompletionsEnv, MODEL, startCompletionsEnv } from "./support/env.js";
import { upstreamBody } from "./support/sibyl-types.js";

let env: CompletionsEnv;
let apiKey: string;

beforeAll(async () => {
  env = await startCompletionsEnv();
  apiKey = (await env.org("10")).apiKey;
});
afterEach(() => env.fake.reset());
afterAll(async () => {
  await env.close();
});

const question = { role: "user" as const, content: "Will the treaty be ratified by 2026?" };

type Message = { role: "system" | "user" | "assistant"; content: string };

/** The messages the upstream received for a chat request. */
async function upstreamMessages(messages: Message[], extra: Record<string, unknown>) {
  await env.client(apiKey).chat.completions.create({ model: MODEL, messages, ...extra });
  return upstreamBody(env.fake.requests[0]?.body).messages ?? [];
}

/** The system messages the upstream received for the question. */
async function systemLines(extra: Record<string, unknown>): Promise<string[]> {
  const messages = await upstreamMessages([question], extra);
  expect(messages.at(-1)).toEqual(question);
  return messages.filter((message) => message.role === "system").map((m) => m.content);
}

function statesToday(lines: string[], day: string): boolean {
  return lines.some((line) => line.includes(day) && /today/i.test(line));
}

describe("prediction_date", () => {
  it.each([
    ["a date", "2024-03-15", "2024-03-15"],
    ["a date-time", "2023-11-02T18:30:00Z", "2023-11-02"],
    ["a date-time with an offset", "2022-07-01T01:00:00+02:00", "2022-06-30"],
    ["a date-time without a zone, read as UTC", "2021-05-31T23:30:00", "2021-05-31"],
  ])("tells the model that %s is today", async (_, predictionDate, day) => {
    const lines = await systemLines({ prediction_date: predictionDate });
    expect(statesToday(lines, day)).toBe(true);
  });

  it("tells the model the current UTC date when omitted", async () => {
    const before = new Date().toISOString().slice(0, 10);
    const lines = await systemLines({});
    const after = new Date().toISOString().slice(0, 10);
    expect(statesToday(lines, before) || statesToday(lines, after)).toBe(true);
  });

  it("keeps the caller's own system message after the date line", async () => {
    const messages = await upstreamMessages(
      [{ role: "system", content: "You are terse." }, question],
      { prediction_date: "2024-03-15" },
    );
    const dateLine = messages.findIndex(
      (m) => m.role === "system" && m.content.includes("2024-03-15"),
    );
    const own = messages.findIndex((m) => m.content === "You are terse.");
    expect(dateLine).toBeGreaterThanOrEqual(0);
    expect(own).toBeGreaterThan(dateLine);
  });

  it("is a chat field: text completions refuse it", async () => {
    const response = await fetch(`${env.server.url}/v1/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ model: MODEL, prompt: "Q", prediction_date: "2024-03-15" }),
    });
    expect(response.status).toBe(400);
    expect(env.fake.requests).toHaveLength(0);
  });
});
