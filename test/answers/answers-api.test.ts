import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FakeUpstream, startFakeUpstream } from "../support/fake-upstream.js";
import { startTestServer, type TestOrg, type TestServer } from "../support/server.js";

const PRICE = { prompt: "0.000001", completion: "0.000002" };

let upstream: FakeUpstream;
let server: TestServer;
let org: TestOrg;
let client: OpenAI;

/** Sibyl's extension fields ride along as extra body keys, as users of the SDK send them. */
type Extensions = { answer_type?: string };
type ChatParams = OpenAI.ChatCompletionCreateParamsNonStreaming & Extensions;
type ChatStreamParams = OpenAI.ChatCompletionCreateParamsStreaming & Extensions;

const ask = (content: string, answerType: string, extra: Partial<ChatParams> = {}): ChatParams => ({
  model: "forecaster",
  messages: [{ role: "user", content }],
  answer_type: answerType,
  ...extra,
});

function answerOf(content: string): string {
  const match = /<answer>((?:(?!<answer>)[\s\S])*)<\/answer>$/.exec(content);
  if (!match?.[1]) throw new Error(`no answer tag at the end of: ${content}`);
  return match[1];
}

async function metricValue(answerType: string, outcome: string): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const line = text
    .split("\n")
    .find((l) =>
      l.startsWith(
        `sibyl_forecast_answers_total{answer_type="${answerType}",outcome="${outcome}"}`,
      ),
    );
  return line ? Number(line.split(" ").at(-1)) : 0;
}

beforeAll(async () => {
  upstream = await startFakeUpstream();
  server = await startTestServer({
    config: {
      limits: { requests_per_minute: 10_000 },
      models: [
        { id: "sibyl-baseline", provider: "baseline" },
        {
          id: "forecaster",
          provider: "openai",
          base_url: upstream.url,
          pricing: PRICE,
          max_completion_tokens: 1000,
          retry_attempts: 1,
        },
      ],
      classification: { model: "sibyl-baseline", cost_usd: "0.0005" },
    },
  });
  org = await server.createOrg("10");
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: org.apiKey, maxRetries: 0 });
});

afterAll(async () => {
  await server.close();
  await upstream.close();
});

beforeEach(() => upstream.reset());

describe("answer_type on chat completions", () => {
  it("appends the binary answer a model stated in prose, and guides the model in a system message", async () => {
    upstream.enqueue({ contents: ["Base rates suggest this is unlikely.\n\nProbability: 23%"] });
    const completion = await client.chat.completions.create(
      ask("Will X happen by 2027?", "BINARY"),
    );
    expect(answerOf(completion.choices[0]?.message.content ?? "")).toBe("0.23");
    const sent = upstream.requests[0]?.body as { messages: { role: string; content: string }[] };
    const system = sent.messages.filter((m) => m.role === "system").map((m) => m.content);
    expect(system.some((text) => text.includes("<answer>"))).toBe(true);
    expect(sent.messages.at(-1)).toEqual({ role: "user", content: "Will X happen by 2027?" });
  });

  it.each([
    ["<answer>1</answer>", "1"],
    ["<answer>1.0</answer>", "1"],
    ["<answer>0</answer>", "0"],
    ["<answer>0.123456</answer>", "0.123456"],
  ])("reports a binary answer as the model gave it: %s", async (tag, expected) => {
    upstream.enqueue({ contents: [`It already happened. ${tag}`] });
    const completion = await client.chat.completions.create(ask("Will X happen?", "binary"));
    expect(answerOf(completion.choices[0]?.message.content ?? "")).toBe(expected);
  });

  it("answers no probability outside [0, 1]: no answer tag is appended", async () => {
    upstream.enqueue(
      { contents: ["Surely. <answer>170%</answer>"] },
      { contents: ["<answer>-0.2</answer>"] },
    );
    const completion = await client.chat.completions.create(ask("Will X happen?", "binary"));
    expect(completion.choices[0]?.message.content).toBe("Surely. <answer>170%</answer>");
  });

  it("normalizes a multiple-choice answer over the question's options", async () => {
    // 105% in all: close enough to 100% to be a rounding slip, so it is scaled down.
    upstream.enqueue({ contents: ["My forecast:\nA: 50%\nB: 30%\nC: 25%"] });
    const completion = await client.chat.completions.create(
      ask("Who wins?\nA) Red\nB) Blue\nC) Green", "multiple_choice"),
    );
    const answer = JSON.parse(answerOf(completion.choices[0]?.message.content ?? ""));
    expect(Object.keys(answer).sort()).toEqual(["A", "B", "C"]);
    const total = Object.values(answer as Record<string, number>).reduce((a, b) => a + b, 0);
    expect(total).toBeCloseTo(1, 3);
    expect(answer.A).toBeCloseTo(0.4762, 3);
  });

  it("returns continuous answers as mean and standard deviation, and value-only answers as one number", async () => {
    upstream.enqueue(
      { contents: ['{"mean": 42.5, "standard_deviation": 5.2}'] },
      { contents: ["I expect about 1,250 units.\nFinal answer: 1250"] },
    );
    const continuous = await client.chat.completions.create(ask("How many units?", "continuous"));
    expect(JSON.parse(answerOf(continuous.choices[0]?.message.content ?? ""))).toEqual({
      mean: 42.5,
      standard_deviation: 5.2,
    });
    const valueOnly = await client.chat.completions.create(
      ask("How many units?", "CONTINUOUS_VALUE_ONLY"),
    );
    expect(Number(answerOf(valueOnly.choices[0]?.message.content ?? ""))).toBe(1250);
  });

  it("gives every choice its own answer when n > 1", async () => {
    upstream.enqueue({ contents: ["Probability: 10%", "Probability: 20%", "Probability: 30%"] });
    const completion = await client.chat.completions.create(
      ask("Will X happen?", "binary", { n: 3 }),
    );
    expect(completion.choices.map((c) => answerOf(c.message.content ?? ""))).toEqual([
      "0.1",
      "0.2",
      "0.3",
    ]);
  });

  it("asks once more with a repair prompt, bills both calls, and counts the repair", async () => {
    const before = await metricValue("binary", "repaired");
    upstream.enqueue(
      {
        contents: ["It is hard to say; the situation is murky."],
        usage: { prompt_tokens: 100, completion_tokens: 10 },
      },
      { contents: ["<answer>0.35</answer>"], usage: { prompt_tokens: 130, completion_tokens: 5 } },
    );
    const completion = await client.chat.completions.create(ask("Will X happen?", "binary"));
    const content = completion.choices[0]?.message.content ?? "";
    expect(content.startsWith("It is hard to say")).toBe(true);
    expect(answerOf(content)).toBe("0.35");
    expect(upstream.requests).toHaveLength(2);
    const repair = upstream.requests[1]?.body as { messages: { role: string; content: string }[] };
    expect(repair.messages.at(-2)).toEqual({
      role: "assistant",
      content: "It is hard to say; the situation is murky.",
    });
    const usage = completion.usage as OpenAI.CompletionUsage & { cost_usd: number };
    expect(usage.prompt_tokens).toBe(230);
    expect(usage.completion_tokens).toBe(15);
    expect(usage.cost_usd).toBeCloseTo(230 * 0.000001 + 15 * 0.000002, 12);
    expect(await metricValue("binary", "repaired")).toBe(before + 1);
  });

  it("returns the reply without a tag when the repair fails too, and counts the failure", async () => {
    const before = await metricValue("binary", "failed");
    upstream.enqueue(
      { contents: ["No idea."], finishReason: "length" },
      { contents: ["Still no idea."] },
    );
    const completion = await client.chat.completions.create(ask("Will X happen?", "binary"));
    expect(completion.choices[0]?.message.content).toBe("No idea.");
    expect(completion.choices[0]?.finish_reason).toBe("length");
    expect(await metricValue("binary", "failed")).toBe(before + 1);
  });

  it("leaves the reply untouched when answer_type is omitted", async () => {
    upstream.enqueue({ contents: ["Probability: 40%"] });
    const completion = await client.chat.completions.create({
      model: "forecaster",
      messages: [{ role: "user", content: "Will X happen?" }],
    });
    expect(completion.choices[0]?.message.content).toBe("Probability: 40%");
    const sent = upstream.requests[0]?.body as { messages: { role: string; content: string }[] };
    expect(sent.messages.filter((m) => m.role === "system")).toHaveLength(1);
  });

  it("classifies auto questions, bills the classification and reports it in usage", async () => {
    upstream.enqueue({
      contents: ["A: 20%, B: 80%"],
      usage: { prompt_tokens: 50, completion_tokens: 10 },
    });
    const completion = await client.chat.completions.create(
      ask("Which option?\nA) Yes, fully\nB) Only partly", "auto"),
    );
    expect(JSON.parse(answerOf(completion.choices[0]?.message.content ?? ""))).toEqual({
      A: 0.2,
      B: 0.8,
    });
    const usage = completion.usage as OpenAI.CompletionUsage & {
      cost_usd: number;
      inference_cost_usd: number;
      classification_cost_usd: number;
    };
    expect(usage.classification_cost_usd).toBe(0.0005);
    expect(usage.inference_cost_usd).toBeCloseTo(50 * 0.000001 + 10 * 0.000002, 12);
    expect(usage.cost_usd).toBeCloseTo(
      usage.inference_cost_usd + usage.classification_cost_usd,
      12,
    );
  });

  it("streams the answer tag as the last content delta, before the finish chunk", async () => {
    upstream.enqueue({ contents: ["Thinking it through... Probability: 64%"] });
    const stream = await client.chat.completions.create({
      ...ask("Will X happen?", "binary"),
      stream: true,
    } as ChatStreamParams);
    const chunks: OpenAI.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    const withChoices = chunks.filter((c) => c.choices.length > 0);
    const finish = withChoices.at(-1);
    const tag = withChoices.at(-2);
    expect(finish?.choices[0]?.finish_reason).toBe("stop");
    expect(tag?.choices[0]?.delta.content).toBe("\n\n<answer>0.64</answer>");
    const content = withChoices.map((c) => c.choices[0]?.delta.content ?? "").join("");
    expect(content).toBe("Thinking it through... Probability: 64%\n\n<answer>0.64</answer>");
  });

  it("works through the SDK's stream helper", async () => {
    upstream.enqueue({ contents: ["mean 12, sd 3"] });
    const stream = client.chat.completions.stream({
      ...ask("How many?", "continuous"),
      stream: true,
    } as ChatStreamParams);
    const final = await stream.finalChatCompletion();
    expect(JSON.parse(answerOf(final.choices[0]?.message.content ?? ""))).toEqual({
      mean: 12,
      standard_deviation: 3,
    });
  });
});

describe("answer_type on text completions", () => {
  it("puts the options tag right before a multiple-choice answer", async () => {
    upstream.enqueue({ contents: [" I lean to B.\nA: 25%\nB: 75%"] });
    const completion = await client.completions.create({
      model: "forecaster",
      prompt: "Question: Which city hosts the final?\nA. Paris\nB. Rome\nAnswer:",
      answer_type: "multiple_choice",
    } as OpenAI.CompletionCreateParamsNonStreaming & Extensions);
    const text = completion.choices[0]?.text ?? "";
    expect(text).toMatch(
      /<options>\{"A":"Paris","B":"Rome"\}<\/options><answer>\{"A":0\.25,"B":0\.75\}<\/answer>$/,
    );
  });

  it("answers every prompt of a prompt list", async () => {
    upstream.enqueue({ contents: ["Probability: 10%", "Probability: 90%"] });
    const completion = await client.completions.create({
      model: "forecaster",
      prompt: ["Will A happen?", "Will B happen?"],
      answer_type: "binary",
    } as OpenAI.CompletionCreateParamsNonStreaming & Extensions);
    expect(completion.choices.map((c) => answerOf(c.text))).toEqual(["0.1", "0.9"]);
  });
});

describe("the baseline model", () => {
  const types: [string, string][] = [
    ["binary", "Will it rain tomorrow?"],
    ["multiple_choice", "Who wins?\nA) Red\nB) Blue\nC) Green\nD) Gold"],
    ["continuous", "How many visitors, after 2,000 last year?"],
    ["continuous_value_only", "What will the price be, now 80?"],
    ["free_response", "Why do markets move?"],
  ];

  it.each(types)("answers %s validly with no upstream", async (answerType, question) => {
    const completion = await client.chat.completions.create({
      ...ask(question, answerType),
      model: "sibyl-baseline",
    });
    const answer = answerOf(completion.choices[0]?.message.content ?? "");
    if (answerType === "binary") expect(Number(answer)).toBe(0.5);
    if (answerType === "multiple_choice") {
      expect(JSON.parse(answer)).toEqual({ A: 0.25, B: 0.25, C: 0.25, D: 0.25 });
    }
    if (answerType === "continuous") {
      const parsed = JSON.parse(answer);
      expect(parsed.mean).toBe(2000);
      expect(parsed.standard_deviation).toBeGreaterThan(0);
    }
    if (answerType === "continuous_value_only") expect(Number(answer)).toBe(80);
    if (answerType === "free_response") expect(answer.length).toBeGreaterThan(10);
  });
});
