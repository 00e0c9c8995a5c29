import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { BASELINE, type CompletionsEnv, MODEL, startCompletionsEnv } from "./support/env.js";
import { post } from "./support/sse.js";

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

interface ErrorResponse {
  status: number;
  detail: unknown;
  error: { message: string; type: string; param: string | null; code: string | null };
}

async function send(path: string, body: unknown, rawBody?: string): Promise<ErrorResponse> {
  const response = await post(env.server.url, path, apiKey, body, rawBody ? { rawBody } : {});
  const json = (await response.json()) as Omit<ErrorResponse, "status">;
  return { status: response.status, ...json };
}

interface ValidationDetail {
  loc: (string | number)[];
  msg: string;
  type: string;
}

function details(response: ErrorResponse): ValidationDetail[] {
  expect(Array.isArray(response.detail)).toBe(true);
  return response.detail as ValidationDetail[];
}

const chat = { model: MODEL, messages: [{ role: "user", content: "Q" }] };
const text = { model: MODEL, prompt: "Q" };

describe("422 validation errors in FastAPI's shape, with an OpenAI error", () => {
  const cases: [string, string, unknown, (string | number)[]][] = [
    ["temperature 3", "/v1/chat/completions", { ...chat, temperature: 3 }, ["body", "temperature"]],
    [
      "temperature -1 (text)",
      "/v1/completions",
      { ...text, temperature: -1 },
      ["body", "temperature"],
    ],
    ["n 0", "/v1/chat/completions", { ...chat, n: 0 }, ["body", "n"]],
    ["n 0 (text)", "/v1/completions", { ...text, n: 0 }, ["body", "n"]],
    [
      "five stop sequences",
      "/v1/chat/completions",
      { ...chat, stop: ["a", "b", "c", "d", "e"] },
      ["body", "stop"],
    ],
    [
      "five stop sequences (text)",
      "/v1/completions",
      { ...text, stop: ["a", "b", "c", "d", "e"] },
      ["body", "stop"],
    ],
    [
      "reasoning_effort extreme",
      "/v1/chat/completions",
      { ...chat, reasoning_effort: "extreme" },
      ["body", "reasoning_effort"],
    ],
    [
      "prediction_date not a date",
      "/v1/chat/completions",
      { ...chat, prediction_date: "next tuesday" },
      ["body", "prediction_date"],
    ],
    [
      "prediction_date month 13",
      "/v1/chat/completions",
      { ...chat, prediction_date: "2024-13-01" },
      ["body", "prediction_date"],
    ],
    ["messages missing", "/v1/chat/completions", { model: MODEL }, ["body", "messages"]],
    [
      "messages empty",
      "/v1/chat/completions",
      { model: MODEL, messages: [] },
      ["body", "messages"],
    ],
    [
      "role invalid",
      "/v1/chat/completions",
      { model: MODEL, messages: [{ role: "wizard", content: "Q" }] },
      ["body", "messages", 0, "role"],
    ],
    [
      "content missing",
      "/v1/chat/completions",
      { model: MODEL, messages: [{ role: "user", content: "Q" }, { role: "user" }] },
      ["body", "messages", 1, "content"],
    ],
    ["model missing", "/v1/chat/completions", { messages: chat.messages }, ["body", "model"]],
    ["prompt missing", "/v1/completions", { model: MODEL }, ["body", "prompt"]],
    [
      "answer_type junk",
      "/v1/chat/completions",
      { ...chat, answer_type: "probability" },
      ["body", "answer_type"],
    ],
    [
      "answer_type junk (text)",
      "/v1/completions",
      { ...text, answer_type: "Binary!" },
      ["body", "answer_type"],
    ],
  ];

  it.each(cases)("%s", async (_, path, body, loc) => {
    const response = await send(path, body);
    expect(response.status).toBe(422);
    const [first] = details(response);
    expect(first?.loc).toEqual(loc);
    expect(typeof first?.msg).toBe("string");
    expect(typeof first?.type).toBe("string");
    expect(response.error.type).toBe("invalid_request_error");
    expect(response.error.message).toContain(String(loc.at(-1)));
    expect(env.fake.requests).toHaveLength(0);
  });

  it.each(["/v1/chat/completions", "/v1/completions"])("malformed JSON at %s", async (path) => {
    const response = await send(path, null, '{"model": "test-model", "messages": [');
    expect(response.status).toBe(422);
    const [first] = details(response);
    expect(first?.type).toBe("json_invalid");
    expect(first?.loc[0]).toBe("body");
    expect(response.error.message.length).toBeGreaterThan(0);
  });

  it.each([
    [
      { answer_type: "bianry" },
      'body.answer_type: Input should be "binary" or "multiple_choice" or "continuous" or "continuous_value_only" or "free_response" or "auto" (either letter case); did you mean "binary"?',
    ],
    [
      { reasoning_effort: "hihg" },
      'body.reasoning_effort: Input should be "low" or "medium" or "high"; did you mean "high"?',
    ],
    [
      { reasoning_effort: "extreme" },
      'body.reasoning_effort: Input should be "low" or "medium" or "high"',
    ],
  ])(
    "names the allowed values once each, and the one a typo meant: %o",
    async (fields, message) => {
      const response = await send("/v1/chat/completions", { ...chat, ...fields });
      expect(response.status).toBe(422);
      expect(response.error.message).toBe(message);
    },
  );

  it.each(["next tuesday", "2024-13-01", "01/03/2026", "2026-03-01 12:00"])(
    "reads a prediction_date that is no date as one problem naming the forms it may take: %s",
    async (date) => {
      const response = await send("/v1/chat/completions", { ...chat, prediction_date: date });
      expect(response.status).toBe(422);
      expect(details(response)).toHaveLength(1);
      expect(response.error.message).toBe(
        "body.prediction_date: Input should be a valid date-time or date (e.g. 2026-03-01T12:00:00Z or 2026-03-01)",
      );
    },
  );

  it("reports every problem, not only the first", async () => {
    const response = await send("/v1/chat/completions", { ...chat, temperature: 9, n: 0 });
    expect(response.status).toBe(422);
    const locs = details(response).map((detail) => detail.loc.join("."));
    expect(locs).toEqual(expect.arrayContaining(["body.temperature", "body.n"]));
  });
});

describe("answer_type", () => {
  it.each([
    ["/v1/chat/completions", chat, "binary"],
    ["/v1/chat/completions", chat, "BINARY"],
    ["/v1/completions", text, "binary"],
    ["/v1/completions", text, "BINARY"],
  ])("%s accepts %o with answer_type %s", async (path, base, answerType) => {
    env.fake.setDefault({ contents: ["My forecast: 0.3 probability. <answer>0.3</answer>"] });
    const response = await post(env.server.url, path, apiKey, {
      ...base,
      model: MODEL,
      answer_type: answerType,
    });
    expect(response.status).toBe(200);
    expect(env.fake.requests.length).toBeGreaterThan(0);
  });
});

describe("client errors that are not validation errors", () => {
  it("refuses web_search research with a prediction_date: 400 research_cutoff_unsupported", async () => {
    const response = await send("/v1/chat/completions", {
      ...chat,
      research: { sources: ["web_search"] },
      prediction_date: "2024-01-01",
    });
    expect(response.status).toBe(400);
    expect(response.error.code).toBe("research_cutoff_unsupported");
    expect(env.fake.requests).toHaveLength(0);
  });

  it.each([
    ["/v1/chat/completions", { ...chat, model: "no-such-model" }],
    ["/v1/completions", { ...text, model: "no-such-model" }],
    ["/v1/compat/chat/completions", { ...chat, model: "no-such-model" }],
  ])("answers 404 naming an unknown model at %s", async (path, body) => {
    const response = await send(path, body);
    expect(response.status).toBe(404);
    expect(response.error.message).toContain("no-such-model");
    expect(response.error.code).toBe("model_not_found");
    expect(response.error.param).toBe("model");
  });

  it("answers 401 without a key", async () => {
    const response = await fetch(`${env.server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(chat),
    });
    expect(response.status).toBe(401);
  });
});

describe("no 500 for odd input", () => {
  const odd: [string, unknown][] = [
    ["null", null],
    ["an array", [chat]],
    ["a string", "hello"],
    ["a number", 42],
    ["model as a number", { ...chat, model: 5 }],
    ["model empty", { ...chat, model: "" }],
    ["messages as a string", { model: MODEL, messages: "hi" }],
    ["a message as a string", { model: MODEL, messages: ["hi"] }],
    ["content as a number", { model: MODEL, messages: [{ role: "user", content: 1 }] }],
    ["stream as a string", { ...chat, stream: "yes" }],
    ["stop as numbers", { ...chat, stop: [1, 2] }],
    ["n as a string", { ...chat, n: "2" }],
    ["n huge", { ...chat, n: 1_000_000 }],
    ["max_tokens 0", { ...chat, max_tokens: 0 }],
    ["max_tokens fractional", { ...chat, max_tokens: 1.5 }],
    ["seed fractional", { ...chat, seed: 0.5 }],
    ["temperature as a string", { ...chat, temperature: "hot" }],
    ["research junk source", { ...chat, research: { sources: ["gossip"] } }],
    ["research as a string", { ...chat, research: "yes" }],
    ["stream_options junk", { ...chat, stream: true, stream_options: "yes" }],
    ["baseline with junk", { model: BASELINE, messages: [{ role: "user" }] }],
    ["prompt as an object", { model: MODEL, prompt: { text: "Q" } }],
    ["prompt empty list", { model: MODEL, prompt: [] }],
    ["prompt list of numbers", { model: MODEL, prompt: [1, 2] }],
  ];

  it.each(odd)("body %s", async (_, body) => {
    for (const path of ["/v1/chat/completions", "/v1/completions"]) {
      const response = await post(env.server.url, path, apiKey, body);
      expect(response.status, `${path}: ${await response.clone().text()}`).toBeGreaterThanOrEqual(
        400,
      );
      expect(response.status).toBeLessThan(500);
      const json = (await response.json()) as { error?: { message?: string } };
      expect(typeof json.error?.message).toBe("string");
    }
    expect(env.fake.requests).toHaveLength(0);
  });

  it("an empty body", async () => {
    const response = await send("/v1/chat/completions", null, " ");
    expect(response.status).toBe(422);
  });

  it("a body that is not JSON", async () => {
    const response = await fetch(`${env.server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "text/plain" },
      body: "model=test-model",
    });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
  });
});
