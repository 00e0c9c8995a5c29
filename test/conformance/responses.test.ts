import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { result } from "../research/support/scripted-provider.js";
import { namedEvents } from "../responses/support/responses.js";
import { type ConformanceEnv, call, type Json, MODEL, startConformanceEnv } from "./support/env.js";
import { openAISchemas } from "./support/openai-schemas.js";

const schemas = openAISchemas();
const REQUEST = {
  model: MODEL,
  input: "Will the bridge open before 2027-01-01?",
  instructions: "Answer as a forecaster.",
  metadata: { run: "conformance" },
};

const EXTENSIONS: Record<string, Json> = {
  plain: {},
  "answer_type binary": { answer_type: "binary" },
  "answer_type multiple_choice": { answer_type: "multiple_choice" },
  "answer_type continuous": { answer_type: "continuous" },
  question_id: { answer_type: "binary", question_id: "conformance-bridge" },
  "calibration auto": { answer_type: "binary", calibration: "auto" },
  research: { research: true },
  prediction_date: {
    prediction_date: "2025-06-01T00:00:00Z",
    research: true,
    answer_type: "binary",
  },
  reasoning: { reasoning: { effort: "high", summary: "auto" } },
  "message list and settings": {
    input: [
      { role: "developer", content: "Be brief." },
      { role: "user", content: [{ type: "input_text", text: "Will it rain tomorrow?" }] },
    ],
    temperature: 0.2,
    top_p: 0.9,
    max_output_tokens: 200,
    store: true,
    tool_choice: "none",
    tools: [],
  },
};

/** Every event type Sibyl sends on a Responses stream; the tests below must see each. */
const EVENT_TYPES = [
  "response.created",
  "response.in_progress",
  "response.output_item.added",
  "response.reasoning_summary_part.added",
  "response.reasoning_summary_text.delta",
  "response.reasoning_summary_text.done",
  "response.reasoning_summary_part.done",
  "response.output_item.done",
  "response.content_part.added",
  "response.output_text.delta",
  "response.output_text.annotation.added",
  "response.output_text.done",
  "response.content_part.done",
  "response.completed",
  "response.incomplete",
  "error",
  "response.failed",
];

describe("the Responses API matches OpenAI's schema", () => {
  let env: ConformanceEnv;
  let apiKey: string;
  const seen = new Set<string>();

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

  function script(extension: Json): void {
    env.fake.setDefault({
      contents: ["The inspection passed [1], so it is likely. Probability: 70%."],
      ...(extension.reasoning
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

  async function stream(body: Json): Promise<Json[]> {
    const response = await call(env, "POST", "/v1/responses", apiKey, { ...body, stream: true });
    expect(response.status, response.text).toBe(200);
    const events = namedEvents(response.text);
    for (const [index, { event, data }] of events.entries()) {
      expect(data.type).toBe(event);
      seen.add(event);
      schemas.assertConforms("ResponseStreamEvent", data, `event ${index} (${event})`);
    }
    return events.map((event) => event.data);
  }

  for (const [name, extension] of Object.entries(EXTENSIONS)) {
    it(`response, ${name}`, async () => {
      script(extension);
      const response = await call(env, "POST", "/v1/responses", apiKey, {
        ...REQUEST,
        ...extension,
      });
      expect(response.status, response.text).toBe(200);
      const body = response.json();
      const output = body.output as Json[];
      if (extension.reasoning)
        expect(output.map((item) => item.type)).toEqual(["reasoning", "message"]);
      if (extension.research) {
        const [text] = (output.at(-1)?.content ?? []) as Json[];
        expect(text?.annotations).toHaveLength(1);
      }
      schemas.assertConforms("Response", body);
    });

    it(`response stream, ${name}`, async () => {
      script(extension);
      const events = await stream({ ...REQUEST, ...extension });
      expect(events.at(-1)?.type).toBe("response.completed");
    });
  }

  it("response with an ensemble", async () => {
    script({});
    const response = await call(env, "POST", "/v1/responses", apiKey, {
      ...REQUEST,
      answer_type: "binary",
      ensemble: { samples: 2 },
    });
    expect(response.status, response.text).toBe(200);
    expect(response.json().ensemble).toBeTypeOf("object");
    schemas.assertConforms("Response", response.json());
  });

  it("an incomplete response, whole and streamed", async () => {
    env.fake.setDefault({ contents: ["It is"], finishReason: "length" });
    const response = await call(env, "POST", "/v1/responses", apiKey, REQUEST);
    expect(response.json()).toMatchObject({ status: "incomplete" });
    schemas.assertConforms("Response", response.json());
    const events = await stream(REQUEST);
    expect(events.at(-1)?.type).toBe("response.incomplete");
  });

  it("a stream the model server breaks off mid-way: error, then response.failed", async () => {
    for (const failWith of ["error-event", "drop"] as const) {
      env.fake.setDefault({
        contents: ["One two three four five six."],
        reasoning: { field: "reasoning_content", text: "Thinking it over." },
        failAfterChunks: 4,
        failWith,
      });
      const events = await stream({ ...REQUEST, reasoning: { effort: "low" } });
      expect(events.slice(-2).map((event) => event.type)).toEqual(["error", "response.failed"]);
    }
  });

  it("reads as numbers, through the openai SDK's types, every usage count OpenAI requires", async () => {
    script({});
    const client = env.client(apiKey);
    const whole = await client.responses.create({ model: MODEL, input: REQUEST.input });
    const streamed = await client.responses
      .stream({ model: MODEL, input: REQUEST.input })
      .finalResponse();
    for (const { usage } of [whole, streamed]) {
      if (!usage) throw new Error("no usage");
      const { input_tokens_details: input, output_tokens_details: output } = usage;
      const counted = input.cached_tokens + input.cache_write_tokens + output.reasoning_tokens;
      expect(Number.isInteger(counted), JSON.stringify(usage)).toBe(true);
    }
  });

  it("saw every event type Sibyl sends", () => {
    expect([...seen].sort()).toEqual([...EVENT_TYPES].sort());
  });
});
