import { Ajv } from "ajv";
import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FakeUpstream, startFakeUpstream } from "../support/fake-upstream.js";
import { startTestServer, type TestOrg, type TestServer } from "../support/server.js";

/*
 * A model whose server supports structured output is asked, on repair, for the answer under
 * the JSON Schema of its type. The fake server here enforces the schema it is sent: its repair
 * reply must validate against it, as a constrained decoder's would.
 */
let upstream: FakeUpstream;
let server: TestServer;
let org: TestOrg;
let client: OpenAI;
const ajv = new Ajv({ strict: false });

beforeAll(async () => {
  upstream = await startFakeUpstream();
  const model = {
    provider: "openai",
    base_url: upstream.url,
    context_length: 32_000,
    max_completion_tokens: 1_000,
    pricing: { prompt: "0", completion: "0" },
  };
  server = await startTestServer({
    config: {
      models: [
        { id: "structured", structured_output: true, ...model },
        { id: "plain", ...model },
      ],
    },
  });
  org = await server.createOrg("5");
  client = new OpenAI({ apiKey: org.apiKey, baseURL: `${server.url}/v1`, maxRetries: 0 });
});

beforeEach(() => {
  upstream.reset();
});

afterAll(async () => {
  await server?.close();
  await upstream?.close();
});

interface RepairBody {
  response_format?: { type: string; json_schema: { schema: Record<string, unknown> } };
  messages: { role: string; content: string }[];
}

/** The schema the repair call sent, after checking that `reply` satisfies it. */
function enforcedSchema(reply: string): Record<string, unknown> {
  const body = upstream.requests.at(-1)?.body as RepairBody;
  expect(body.response_format?.type).toBe("json_schema");
  const schema = body.response_format?.json_schema.schema ?? {};
  expect(ajv.validate(schema, JSON.parse(reply)), JSON.stringify(ajv.errors)).toBe(true);
  return schema;
}

describe("answers by construction on repair", () => {
  it.each([
    ["binary", "Will it pass?", '{"probability": 0.37}', "<answer>0.37</answer>"],
    [
      "multiple_choice",
      "Who wins?\nA) Red\nB) Blue\nC) Green",
      '{"A": 0.5, "B": 0.3, "C": 0.2}',
      '<answer>{"A":0.5,"B":0.3,"C":0.2}</answer>',
    ],
    [
      "continuous",
      "How many units will ship?",
      '{"mean": 1200, "standard_deviation": 150}',
      '<answer>{"mean":1200,"standard_deviation":150}</answer>',
    ],
    ["continuous_value_only", "How many units?", '{"value": 1250}', "<answer>1250</answer>"],
    ["free_response", "Which city will host?", '{"answer": "Doha"}', "<answer>Doha</answer>"],
  ])(
    "%s: asks under the type's schema and reads the constrained reply",
    async (type, question, repair, tag) => {
      upstream.enqueue({ contents: ["I can't predict that."] }, { contents: [repair] });
      const completion = await client.chat.completions.create({
        model: "structured",
        messages: [{ role: "user", content: question }],
        // @ts-expect-error Sibyl's extension field
        answer_type: type,
      });
      enforcedSchema(repair);
      expect(completion.choices[0]?.message.content?.endsWith(tag)).toBe(true);
    },
  );

  it("refuses, through the schema, what is no answer: a probability above 1 never validates", async () => {
    upstream.enqueue({ contents: ["No idea."] }, { contents: ['{"probability": 0.4}'] });
    await client.chat.completions.create({
      model: "structured",
      messages: [{ role: "user", content: "Will it pass?" }],
      // @ts-expect-error Sibyl's extension field
      answer_type: "binary",
    });
    const schema = enforcedSchema('{"probability": 0.4}');
    expect(ajv.validate(schema, { probability: 1.2 })).toBe(false);
    expect(ajv.validate(schema, { probability: 0.4, note: "x" })).toBe(false);
  });

  it("sends no response_format to a server not configured for it", async () => {
    upstream.enqueue({ contents: ["Hmm."] }, { contents: ["<answer>0.2</answer>"] });
    const completion = await client.chat.completions.create({
      model: "plain",
      messages: [{ role: "user", content: "Will it pass?" }],
      // @ts-expect-error Sibyl's extension field
      answer_type: "binary",
    });
    const repairBody = upstream.requests.at(-1)?.body as RepairBody | undefined;
    expect(repairBody).toBeDefined();
    expect(repairBody?.response_format).toBeUndefined();
    expect(completion.choices[0]?.message.content?.endsWith("<answer>0.2</answer>")).toBe(true);
  });

  it("counts every repair and unread answer by type, outcome and rule", async () => {
    upstream.enqueue({ contents: ["Probability: ZZ%"] }, { contents: ["still thinking"] });
    await client.chat.completions.create({
      model: "plain",
      messages: [{ role: "user", content: "Will it pass?" }],
      // @ts-expect-error Sibyl's extension field
      answer_type: "binary",
    });
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toMatch(
      /sibyl_forecast_answer_readings_total\{answer_type="binary",outcome="failed",rule="no_answer_stated"\} 1/,
    );
    expect(metrics).toMatch(
      /sibyl_forecast_answer_readings_total\{answer_type="binary",outcome="repaired",rule="nothing_found"\} \d/,
    );
  });
});
