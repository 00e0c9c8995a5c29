import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type CompletionsEnv, MODEL, startCompletionsEnv } from "../completions/support/env.js";
import { post } from "../completions/support/sse.js";

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

interface ErrorAnswer {
  status: number;
  detail: unknown;
  error: { message: string; type: string; param: string | null; code: string | null };
}

async function send(path: string, body: unknown): Promise<ErrorAnswer> {
  const response = await post(env.server.url, path, apiKey, body);
  const json = (await response.json()) as Omit<ErrorAnswer, "status">;
  return { status: response.status, ...json };
}

const base = { model: MODEL, input: "Will the bill pass?" };
const chat = { model: MODEL, messages: [{ role: "user", content: "Will the bill pass?" }] };

describe("422 validation errors, in the FastAPI shape", () => {
  it.each([
    ["no input", { model: MODEL }, ["body", "input"]],
    ["input a number", { ...base, input: 42 }, ["body", "input"]],
    ["an empty input list", { ...base, input: [] }, ["body", "input"]],
    ["temperature 3", { ...base, temperature: 3 }, ["body", "temperature"]],
    ["top_p 2", { ...base, top_p: 2 }, ["body", "top_p"]],
    ["max_output_tokens 0", { ...base, max_output_tokens: 0 }, ["body", "max_output_tokens"]],
    [
      "reasoning effort extreme",
      { ...base, reasoning: { effort: "extreme" } },
      ["body", "reasoning", "effort"],
    ],
    [
      "a role of tool",
      { ...base, input: [{ role: "tool", content: "x" }] },
      ["body", "input", 0, "role"],
    ],
    ["stream a string", { ...base, stream: "yes" }, ["body", "stream"]],
    ["metadata a number", { ...base, metadata: { run: 1 } }, ["body", "metadata", "run"]],
  ])("%s", async (_name, body, loc) => {
    const answer = await send("/v1/responses", body);
    expect(answer.status).toBe(422);
    expect(answer.error.type).toBe("invalid_request_error");
    const locs = (answer.detail as { loc: unknown[] }[]).map((detail) => detail.loc);
    expect(locs).toContainEqual(loc);
    expect(env.fake.requests).toHaveLength(0);
  });

  it.each([
    ["answer_type", "probability"],
    ["prediction_date", "next tuesday"],
    ["prediction_date", "2024-13-01"],
    ["research", { sources: ["crystal_ball"] }],
  ])("refuses %s %o exactly as chat completions do", async (field, value) => {
    const response = await send("/v1/responses", { ...base, [field]: value });
    const chatResponse = await send("/v1/chat/completions", { ...chat, [field]: value });
    expect(response.status).toBe(422);
    expect({ ...response.error, message: "" }).toEqual({ ...chatResponse.error, message: "" });
    expect(response.detail).toEqual(chatResponse.detail);
  });
});

describe("400 for what Sibyl does not offer, naming the field", () => {
  it.each([
    ["tools", { tools: [{ type: "function", name: "lookup", parameters: {} }] }, "tools"],
    ["tool_choice required", { tool_choice: "required" }, "tool_choice"],
    ["a forced function", { tool_choice: { type: "function", name: "lookup" } }, "tool_choice"],
    ["background mode", { background: true }, "background"],
    ["previous_response_id", { previous_response_id: "resp_abc" }, "previous_response_id"],
    ["a conversation", { conversation: "conv_abc" }, "conversation"],
    ["a prompt template", { prompt: { id: "pmpt_abc" } }, "prompt"],
    [
      "json_schema output",
      { text: { format: { type: "json_schema", name: "x", schema: {} } } },
      "text.format",
    ],
    ["json_object output", { text: { format: { type: "json_object" } } }, "text.format"],
    ["low verbosity", { text: { verbosity: "low" } }, "text.verbosity"],
    ["include", { include: ["reasoning.encrypted_content"] }, "include"],
    ["top_logprobs", { top_logprobs: 3 }, "top_logprobs"],
    ["truncation auto", { truncation: "auto" }, "truncation"],
  ])("%s", async (_name, extra, param) => {
    const answer = await send("/v1/responses", { ...base, ...extra });
    expect(answer.status).toBe(400);
    expect(answer.error).toMatchObject({ type: "invalid_request_error", param });
    expect(answer.error.code).toBe("unsupported_parameter");
    expect(env.fake.requests).toHaveLength(0);
  });

  it.each([
    ["an image", { type: "input_image", image_url: "https://example.org/a.png" }],
    ["a file", { type: "input_file", file_id: "file-abc" }],
  ])("refuses %s in a message, naming the part", async (_name, part) => {
    const input = [{ role: "user", content: [{ type: "input_text", text: "Look:" }, part] }];
    const answer = await send("/v1/responses", { ...base, input });
    expect(answer.status).toBe(400);
    expect(answer.error).toMatchObject({
      code: "unsupported_content_type",
      param: "input[0].content[1]",
    });
  });

  it("refuses other input items, with advice for stored item references", async () => {
    const call = [{ type: "function_call_output", call_id: "call_1", output: "42" }];
    const answer = await send("/v1/responses", { ...base, input: call });
    expect(answer.status).toBe(400);
    expect(answer.error).toMatchObject({ code: "unsupported_input_item", param: "input[0].type" });
    const reference = await send("/v1/responses", {
      ...base,
      input: [
        { role: "user", content: "Q" },
        { type: "item_reference", id: "msg_abc" },
      ],
    });
    expect(reference.status).toBe(400);
    expect(reference.error.param).toBe("input[1].type");
    expect(reference.error.message).toContain("store");
  });

  it("refuses a message without a role or content", async () => {
    const noRole = await send("/v1/responses", { ...base, input: [{ content: "Q" }] });
    expect(noRole.status).toBe(400);
    expect(noRole.error.param).toBe("input[0].role");
    const noContent = await send("/v1/responses", { ...base, input: [{ role: "user" }] });
    expect(noContent.status).toBe(400);
    expect(noContent.error.param).toBe("input[0].content");
  });

  it("accepts the settings clients send by default", async () => {
    const response = await post(env.server.url, "/v1/responses", apiKey, {
      ...base,
      tools: [],
      tool_choice: "auto",
      text: { format: { type: "text" }, verbosity: "medium" },
      include: [],
      truncation: "disabled",
      parallel_tool_calls: true,
      store: true,
      stream_options: { include_obfuscation: false },
      reasoning: { effort: null, summary: "auto" },
      service_tier: "auto",
      user: "someone",
      top_logprobs: 0,
    });
    expect(response.status).toBe(200);
  });

  it("names max_output_tokens when it exceeds the model's limit", async () => {
    const answer = await send("/v1/responses", { ...base, max_output_tokens: 1_000_000 });
    expect(answer.status).toBe(400);
    expect(answer.error).toMatchObject({
      code: "max_tokens_too_large",
      param: "max_output_tokens",
    });
    expect(answer.error.message).toMatch(/^max_output_tokens 1000000 exceeds/);
  });

  it("names input when it exceeds the model's context", async () => {
    const answer = await send("/v1/responses", { ...base, input: "word ".repeat(40_000) });
    expect(answer.status).toBe(400);
    expect(answer.error).toMatchObject({ code: "context_length_exceeded", param: "input" });
  });

  it("refuses web_search research with a prediction_date as chat completions do", async () => {
    const answer = await send("/v1/responses", {
      ...base,
      research: { sources: ["web_search"] },
      prediction_date: "2024-01-01",
    });
    expect(answer.status).toBe(400);
    expect(answer.error).toMatchObject({
      code: "research_cutoff_unsupported",
      param: "research.sources",
    });
  });

  it("answers 404 naming an unknown model", async () => {
    const answer = await send("/v1/responses", { ...base, model: "no-such-model" });
    expect(answer.status).toBe(404);
    expect(answer.error).toMatchObject({ code: "model_not_found", param: "model" });
  });
});
