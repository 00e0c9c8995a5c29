import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FakeUpstream, startFakeUpstream } from "../support/fake-upstream.js";
import { startTestServer, type TestServer } from "../support/server.js";

let upstream: FakeUpstream;
let server: TestServer;
let client: OpenAI;

type AutoParams = OpenAI.ChatCompletionCreateParamsNonStreaming & { answer_type: string };

beforeAll(async () => {
  upstream = await startFakeUpstream();
  server = await startTestServer({
    config: {
      models: [
        {
          id: "forecaster",
          provider: "openai",
          base_url: upstream.url,
          pricing: { prompt: "0.000001", completion: "0.000002" },
          retry_attempts: 1,
        },
      ],
      classification: { model: "forecaster", cost_usd: "0.001" },
    },
  });
  const org = await server.createOrg("5");
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: org.apiKey, maxRetries: 0 });
});

afterAll(async () => {
  await server.close();
  await upstream.close();
});

beforeEach(() => upstream.reset());

const auto = (content: string): AutoParams => ({
  model: "forecaster",
  messages: [{ role: "user", content }],
  answer_type: "auto",
});

describe("auto classification with a configured model", () => {
  it("asks the classification model first and follows its verdict", async () => {
    upstream.enqueue({ contents: ["continuous"] }, { contents: ["Median 120, sd 15."] });
    const completion = await client.chat.completions.create(auto("What will the index be in May?"));
    expect(upstream.requests).toHaveLength(2);
    const classification = upstream.requests[0]?.body as { messages: { content: string }[] };
    expect(JSON.stringify(classification.messages)).toContain("What will the index be in May?");
    expect(completion.choices[0]?.message.content).toMatch(
      /<answer>\{"mean":120,"standard_deviation":15\}<\/answer>$/,
    );
    const usage = completion.usage as OpenAI.CompletionUsage & { classification_cost_usd: number };
    expect(usage.classification_cost_usd).toBe(0.001);
  });

  it("falls back to the rules when the classification model fails", async () => {
    upstream.enqueue(
      { status: 500, errorBody: { error: { message: "down" } } },
      { contents: ["Probability: 70%"] },
    );
    const completion = await client.chat.completions.create(auto("Will the bill pass?"));
    expect(completion.choices[0]?.message.content).toMatch(/<answer>0\.7<\/answer>$/);
    const usage = completion.usage as OpenAI.CompletionUsage & { classification_cost_usd: number };
    expect(usage.classification_cost_usd).toBe(0.001);
  });
});
