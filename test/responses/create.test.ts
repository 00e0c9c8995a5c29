import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type CompletionsEnv, MODEL, startCompletionsEnv } from "../completions/support/env.js";
import { costNanos, usd } from "../completions/support/money.js";
import { upstreamBody } from "../completions/support/sibyl-types.js";
import { post } from "../completions/support/sse.js";
import { responseUsage } from "./support/responses.js";

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

const question = "Will the bill pass?";

describe.each(["/v1", "/v1/compat"] as const)("responses.create at %s", (prefix) => {
  it("answers with a completed response holding one message", async () => {
    env.fake.enqueue({
      contents: ["It will pass narrowly."],
      usage: { prompt_tokens: 40, completion_tokens: 6 },
    });
    const response = await env.client(apiKey, prefix).responses.create({
      model: MODEL,
      input: question,
    });
    expect(response.id).toMatch(/^resp_/);
    expect(response.object).toBe("response");
    expect(response.status).toBe("completed");
    expect(response.model).toBe(MODEL);
    expect(response.error).toBeNull();
    expect(response.incomplete_details).toBeNull();
    expect(response.output_text).toBe("It will pass narrowly.");
    expect(response.output).toHaveLength(1);
    expect(response.output[0]).toMatchObject({
      type: "message",
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: "It will pass narrowly.", annotations: [] }],
    });
    expect(response.output[0]?.id).toMatch(/^msg_/);
    const usage = responseUsage(response.usage);
    expect(usage).toMatchObject({
      input_tokens: 40,
      output_tokens: 6,
      total_tokens: 46,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens_details: { reasoning_tokens: 0 },
    });
    expect(usage.cost_usd).toBe(usd(costNanos(40, 6)));
    expect(usage.inference_cost_usd).toBe(usage.cost_usd);
    const sent = upstreamBody(env.fake.requests[0]?.body);
    expect(sent.messages?.at(-1)).toEqual({ role: "user", content: question });
    expect(sent.stream).toBe(false);
  });

  it("sends instructions first and every input message in order, developer as system", async () => {
    await env.client(apiKey, prefix).responses.create({
      model: MODEL,
      instructions: "Answer briefly.",
      input: [
        { role: "developer", content: "Think in probabilities." },
        { role: "user", content: [{ type: "input_text", text: "First question." }] },
        {
          type: "message",
          role: "assistant",
          id: "msg_earlier",
          status: "completed",
          content: [{ type: "output_text", text: "First answer.", annotations: [] }],
        },
        {
          role: "user",
          content: [
            { type: "input_text", text: "Second" },
            { type: "input_text", text: "question." },
          ],
        },
      ],
    });
    const sent = upstreamBody(env.fake.requests[0]?.body);
    // Sibyl's own date line comes first, as for every chat completion.
    expect(sent.messages?.[0]?.role).toBe("system");
    expect(sent.messages?.slice(1)).toEqual([
      { role: "system", content: "Answer briefly." },
      { role: "system", content: "Think in probabilities." },
      { role: "user", content: "First question." },
      { role: "assistant", content: "First answer." },
      { role: "user", content: "Second\n\nquestion." },
    ]);
  });

  it("maps max_output_tokens, temperature, top_p and reasoning effort", async () => {
    const response = await env.client(apiKey, prefix).responses.create({
      model: MODEL,
      input: question,
      max_output_tokens: 77,
      temperature: 0.2,
      top_p: 0.9,
      reasoning: { effort: "high" },
    });
    expect(upstreamBody(env.fake.requests[0]?.body)).toMatchObject({
      max_tokens: 77,
      temperature: 0.2,
      top_p: 0.9,
      reasoning_effort: "high",
    });
    expect(response).toMatchObject({
      max_output_tokens: 77,
      temperature: 0.2,
      top_p: 0.9,
      reasoning: { effort: "high" },
    });
  });

  it("returns the model's thinking as a reasoning item ahead of the message", async () => {
    env.fake.enqueue({
      contents: ["Probably not."],
      reasoning: { field: "reasoning_content", text: "Weigh the votes first." },
      usage: { prompt_tokens: 20, completion_tokens: 15, reasoning_tokens: 9 },
    });
    const response = await env.client(apiKey, prefix).responses.create({
      model: MODEL,
      input: question,
    });
    expect(response.output.map((item) => item.type)).toEqual(["reasoning", "message"]);
    expect(response.output[0]).toMatchObject({
      type: "reasoning",
      summary: [{ type: "summary_text", text: "Weigh the votes first." }],
    });
    expect(response.output[0]?.id).toMatch(/^rs_/);
    expect(response.output_text).toBe("Probably not.");
    expect(response.usage?.output_tokens_details.reasoning_tokens).toBe(9);
  });

  it("is incomplete when the reply hit max_output_tokens", async () => {
    env.fake.enqueue({ contents: ["It will"], finishReason: "length" });
    const response = await env.client(apiKey, prefix).responses.create({
      model: MODEL,
      input: question,
      max_output_tokens: 2,
    });
    expect(response.status).toBe("incomplete");
    expect(response.incomplete_details).toEqual({ reason: "max_output_tokens" });
    expect(response.output[0]).toMatchObject({ type: "message", status: "incomplete" });
    expect(response.output_text).toBe("It will");
  });

  it("appends the answer tags to the output text for answer_type", async () => {
    env.fake.enqueue({ contents: ["Thinking it through... Probability: 64%"] });
    const response = await env.client(apiKey, prefix).responses.create({
      model: MODEL,
      input: "Will it rain in Paris tomorrow?",
      // @ts-expect-error Sibyl's extension field, sent in the body by the SDK
      answer_type: "binary",
    });
    expect(response.output_text).toBe(
      "Thinking it through... Probability: 64%\n\n<answer>0.64</answer>",
    );
  });

  it("accepts store either way, stores nothing and says so", async () => {
    for (const store of [true, false]) {
      const response = await env.client(apiKey, prefix).responses.create({
        model: MODEL,
        input: question,
        store,
        metadata: { run: "42" },
      });
      expect(response.status).toBe("completed");
      expect(response).toMatchObject({ store: false, metadata: { run: "42" } });
    }
  });

  it("takes the prediction_date extension as chat completions do", async () => {
    await post(env.server.url, `${prefix}/responses`, apiKey, {
      model: MODEL,
      input: question,
      prediction_date: "2024-03-01",
    });
    const sent = upstreamBody(env.fake.requests[0]?.body);
    expect(sent.messages?.[0]?.content).toContain("2024-03-01");
  });
});
