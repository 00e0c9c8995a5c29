import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parseEventStream } from "../completions/support/sse.js";
import { result } from "../research/support/scripted-provider.js";
import { TEXT_COMPLETION_CHUNK } from "./support/derived-schemas.js";
import { type ConformanceEnv, call, type Json, MODEL, startConformanceEnv } from "./support/env.js";
import { openAISchemas } from "./support/openai-schemas.js";

const schemas = openAISchemas();
const QUESTION = "Will the bridge open before 2027-01-01?";
const CHAT = { model: MODEL, messages: [{ role: "user", content: QUESTION }] };
const TEXT = { model: MODEL, prompt: QUESTION };

/** Each extension of a completion request, alone, and all the forecasting ones together. */
const EXTENSIONS: Record<string, Json> = {
  plain: {},
  "answer_type binary": { answer_type: "binary" },
  "answer_type multiple_choice": { answer_type: "multiple_choice" },
  "answer_type continuous": { answer_type: "continuous" },
  "answer_type free_response": { answer_type: "free_response" },
  "answer_type auto": { answer_type: "auto" },
  "answer_type continuous_value_only": { answer_type: "continuous_value_only" },
  question_id: { answer_type: "binary", question_id: "conformance-bridge" },
  "calibration auto": { answer_type: "binary", calibration: "auto" },
  research: { research: true },
  "research from named sources": { research: { sources: ["news_search"] } },
  prediction_date: { prediction_date: "2025-06-01", research: true, answer_type: "binary" },
  reasoning: { reasoning_effort: "high" },
  "n 2 with stop and seed": { n: 2, stop: ["\n\n"], seed: 7 },
  "sampling settings": { temperature: 0.3, top_p: 0.9, top_k: 20, min_p: 0.05, max_tokens: 300 },
};

/** The reply shows what the extension adds, so the check covers it rather than a plain reply. */
function expectExtensionsAt(extension: Json, message: Json): void {
  if (extension.research) expect(message.annotations).toHaveLength(1);
  if (extension.reasoning_effort) expect(message.thinking).toBe("Base rates first.");
  if (extension.answer_type && extension.answer_type !== "free_response") {
    expect(message.content).toMatch(/<answer>.*<\/answer>$/s);
  }
}

describe("chat and text completions match OpenAI's schema", () => {
  let env: ConformanceEnv;
  let apiKey: string;

  beforeAll(async () => {
    env = await startConformanceEnv();
    apiKey = (await env.org("50")).apiKey;
  });
  afterEach(() => {
    env.fake.reset();
    env.news.reset();
  });
  afterAll(async () => {
    await env?.close();
  });

  /** Replies the fake gives: an answer every answer type can read, and thinking when asked. */
  function script(extension: Json): void {
    env.fake.setDefault({
      contents: [
        "Options: (A) yes (B) no. The bridge passed inspection [1]. Probability: 62%. A: 62%, B: 38%. Median 40, standard deviation 5.",
      ],
      ...(extension.reasoning_effort
        ? { reasoning: { field: "reasoning_content", text: "Base rates first." } }
        : {}),
    });
    if (extension.research) {
      env.news.script = {
        results: [
          result({
            url: "https://news.example/bridge",
            title: "Bridge inspection passed",
            publishedAt: new Date("2025-05-01T10:00:00Z"),
            snippet: "Inspectors signed off on the new bridge.",
          }),
        ],
      };
    }
  }

  for (const [name, extension] of Object.entries(EXTENSIONS)) {
    it(`chat completion, ${name}`, async () => {
      script(extension);
      const response = await call(env, "POST", "/v1/chat/completions", apiKey, {
        ...CHAT,
        ...extension,
      });
      expect(response.status, response.text).toBe(200);
      const body = response.json();
      expectExtensionsAt(extension, (body.choices as Json[])[0]?.message as Json);
      schemas.assertConforms("CreateChatCompletionResponse", body);
    });

    it(`chat completion stream, ${name}`, async () => {
      script(extension);
      const response = await call(env, "POST", "/v1/chat/completions", apiKey, {
        ...CHAT,
        ...extension,
        stream: true,
        stream_options: { include_usage: true },
      });
      expect(response.status, response.text).toBe(200);
      const { events, done } = parseEventStream(response.text);
      expect(done).toBe(true);
      expect(events.at(-1)?.usage).toBeTypeOf("object");
      for (const [index, chunk] of events.entries()) {
        schemas.assertConforms("CreateChatCompletionStreamResponse", chunk, `chunk ${index}`);
      }
    });

    // Research (and so an as-of date's sources) is for chat completions only: text answers 400.
    if (extension.research === undefined) {
      it(`text completion, ${name}`, async () => {
        script(extension);
        const response = await call(env, "POST", "/v1/completions", apiKey, {
          ...TEXT,
          ...extension,
        });
        expect(response.status, response.text).toBe(200);
        schemas.assertConforms("CreateCompletionResponse", response.json());
      });

      it(`text completion stream, ${name}`, async () => {
        script(extension);
        const response = await call(env, "POST", "/v1/completions", apiKey, {
          ...TEXT,
          ...extension,
          stream: true,
          stream_options: { include_usage: true },
        });
        expect(response.status, response.text).toBe(200);
        const { events, done } = parseEventStream(response.text);
        expect(done).toBe(true);
        for (const [index, chunk] of events.entries()) {
          schemas.assertConforms(TEXT_COMPLETION_CHUNK, chunk, `chunk ${index}`);
        }
      });
    }
  }

  it("chat completion with an ensemble", async () => {
    script({});
    const response = await call(env, "POST", "/v1/chat/completions", apiKey, {
      ...CHAT,
      answer_type: "binary",
      ensemble: { samples: 3, aggregate: "mean" },
    });
    expect(response.status, response.text).toBe(200);
    const body = response.json();
    expect(body.ensemble).toBeTypeOf("object");
    schemas.assertConforms("CreateChatCompletionResponse", body);
  });

  it("finish reasons a model server gives that OpenAI's schema does not know", async () => {
    for (const finishReason of ["abort", "tool_calls", "eos"]) {
      env.fake.setDefault({ contents: ["Done."], finishReason });
      const chat = await call(env, "POST", "/v1/chat/completions", apiKey, CHAT);
      schemas.assertConforms("CreateChatCompletionResponse", chat.json(), finishReason);
      const text = await call(env, "POST", "/v1/completions", apiKey, TEXT);
      schemas.assertConforms("CreateCompletionResponse", text.json(), finishReason);
      const stream = await call(env, "POST", "/v1/completions", apiKey, { ...TEXT, stream: true });
      const { events } = parseEventStream(stream.text);
      for (const chunk of events)
        schemas.assertConforms(TEXT_COMPLETION_CHUNK, chunk, finishReason);
      const last = events.at(-1)?.choices as Json[] | undefined;
      expect(last?.[0]?.finish_reason).toBe("stop");
    }
  });

  it("text completion of several prompts", async () => {
    script({});
    const response = await call(env, "POST", "/v1/completions", apiKey, {
      ...TEXT,
      prompt: [QUESTION, "Will it rain tomorrow?"],
      answer_type: "binary",
      n: 2,
    });
    expect(response.status, response.text).toBe(200);
    expect(response.json().choices).toHaveLength(4);
    schemas.assertConforms("CreateCompletionResponse", response.json());
  });
});
