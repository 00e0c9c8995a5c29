import type OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ForecastReading } from "../../src/completions/types.js";
import {
  type BatchServer,
  batchRequest,
  chatLine,
  jsonl,
  readResults,
  startBatchServer,
  uploadBatchFile,
  waitForBatch,
} from "../batches/support/batch-server.js";
import { type FakeUpstream, startFakeUpstream } from "../support/fake-upstream.js";

/*
 * Every answer a response carries says which rule read it: `forecast.read_by` on each choice of
 * chat and text completions (on a stream, on the choice's last chunk), on the Responses object
 * and in every batch line's result. These tests go through the HTTP API and a fake model server.
 */
let upstream: FakeUpstream;
let server: BatchServer;
let client: OpenAI;

type Extensions = { answer_type?: string };
type ChunkChoice = { index: number; finish_reason: string | null; forecast?: ForecastReading };
type WithForecast = { forecast?: ForecastReading };

beforeAll(async () => {
  upstream = await startFakeUpstream();
  server = await startBatchServer({
    config: {
      limits: { requests_per_minute: 10_000 },
      models: [
        {
          id: "forecaster",
          provider: "openai",
          base_url: upstream.url,
          pricing: { prompt: "0", completion: "0" },
          max_completion_tokens: 1000,
          retry_attempts: 1,
        },
      ],
    },
  });
  client = (await server.client("5")).openai;
});

afterAll(async () => {
  await server?.close();
  await upstream?.close();
});

beforeEach(() => upstream.reset());

const chat = (content: string, answerType: string) =>
  client.chat.completions.create({
    model: "forecaster",
    messages: [{ role: "user", content }],
    answer_type: answerType,
  } as OpenAI.ChatCompletionCreateParamsNonStreaming & Extensions);

const forecastOf = (choice: unknown): ForecastReading | undefined =>
  (choice as WithForecast | undefined)?.forecast;

describe("forecast.read_by on completions", () => {
  it.each([
    ["binary", "Will it pass?", "Base rates are low.\n\nProbability: 23%", "label"],
    ["binary", "Will it pass?", "I was at 30%; raising my forecast from 30% to 35%.", "revision"],
    ["binary", "Will it pass?", "Done. <answer>0.4</answer>", "answer_tag"],
    ["multiple_choice", "Who wins?\nA) Red\nB) Blue", "A: 20%\nB: 80%", "option_lines"],
    ["continuous", "How many units?", "Mean: 40\nSD: 5", "labels"],
  ])("%s (%j): %j is read by %s", async (type, question, reply, rule) => {
    upstream.enqueue({ contents: [reply] });
    const completion = await chat(question, type);
    expect(forecastOf(completion.choices[0])).toEqual({
      answer_type: type,
      answer_status: "extracted",
      read_by: rule,
    });
  });

  it("names the repair's rule for a repaired answer, and the rule that found none for a failed one", async () => {
    upstream.enqueue(
      { contents: ["It is hard to say."] },
      { contents: ["<answer>0.35</answer>"] },
      { contents: ["Probability: ZZ%"] },
      { contents: ["Still no idea."] },
    );
    const repaired = await chat("Will it pass?", "binary");
    expect(forecastOf(repaired.choices[0])).toEqual({
      answer_type: "binary",
      answer_status: "repaired",
      read_by: "answer_tag",
    });
    const failed = await chat("Will it pass?", "binary");
    expect(failed.choices[0]?.message.content).toBe("Probability: ZZ%");
    expect(forecastOf(failed.choices[0])).toEqual({
      answer_type: "binary",
      answer_status: "failed",
      read_by: "no_answer_stated",
    });
  });

  it("gives each of n choices its own reading, and none without answer_type", async () => {
    upstream.enqueue(
      { contents: ["Probability: 10%", "From 20% I revise to 30%."] },
      { contents: ["Probability: 40%"] },
    );
    const completion = await client.chat.completions.create({
      model: "forecaster",
      messages: [{ role: "user", content: "Will it pass?" }],
      n: 2,
      answer_type: "binary",
    } as OpenAI.ChatCompletionCreateParamsNonStreaming & Extensions);
    expect(completion.choices.map((c) => forecastOf(c)?.read_by)).toEqual(["label", "revision"]);
    const plain = await client.chat.completions.create({
      model: "forecaster",
      messages: [{ role: "user", content: "Will it pass?" }],
    });
    expect(forecastOf(plain.choices[0])).toBeUndefined();
  });

  it("is on each text completion choice", async () => {
    upstream.enqueue({ contents: ["Probability: 62%"] });
    const completion = await client.completions.create({
      model: "forecaster",
      prompt: "Will it pass?",
      answer_type: "binary",
    } as OpenAI.CompletionCreateParamsNonStreaming & Extensions);
    expect(forecastOf(completion.choices[0])).toEqual({
      answer_type: "binary",
      answer_status: "extracted",
      read_by: "label",
    });
  });

  it("is on a streamed choice's last chunk only, for chat and text streams", async () => {
    upstream.enqueue(
      { contents: ["Thinking it over. Probability: 62%"] },
      { contents: ["Thinking it over. Probability: 62%"] },
    );
    const chatStream = await client.chat.completions.create({
      model: "forecaster",
      messages: [{ role: "user", content: "Will it pass?" }],
      stream: true,
      answer_type: "binary",
    } as OpenAI.ChatCompletionCreateParamsStreaming & Extensions);
    const chatChoices: ChunkChoice[] = [];
    for await (const chunk of chatStream) chatChoices.push(...(chunk.choices as ChunkChoice[]));
    const textStream = await client.completions.create({
      model: "forecaster",
      prompt: "Will it pass?",
      stream: true,
      answer_type: "binary",
    } as OpenAI.CompletionCreateParamsStreaming & Extensions);
    const textChoices: ChunkChoice[] = [];
    for await (const chunk of textStream) textChoices.push(...(chunk.choices as ChunkChoice[]));
    for (const choices of [chatChoices, textChoices]) {
      const withReading = choices.filter((choice) => choice.forecast !== undefined);
      expect(withReading).toHaveLength(1);
      expect(withReading[0]?.finish_reason).toBe("stop");
      expect(withReading[0]?.forecast).toEqual({
        answer_type: "binary",
        answer_status: "extracted",
        read_by: "label",
      });
    }
  });

  it("is on the Responses object, streamed or not", async () => {
    upstream.enqueue(
      { contents: ["From 30% I revise to 40%."] },
      { contents: ["From 30% I revise to 40%."] },
    );
    const body = { model: "forecaster", input: "Will it pass?", answer_type: "binary" };
    const response = await client.responses.create(
      body as OpenAI.Responses.ResponseCreateParamsNonStreaming,
    );
    const expected = { answer_type: "binary", answer_status: "extracted", read_by: "revision" };
    expect(forecastOf(response)).toEqual(expected);
    const stream = await client.responses.create({
      ...body,
      stream: true,
    } as OpenAI.Responses.ResponseCreateParamsStreaming);
    let completed: unknown;
    for await (const event of stream) {
      if (event.type === "response.completed") completed = event.response;
    }
    expect(forecastOf(completed)).toEqual(expected);
  });

  it("is in every batch line's result", async () => {
    upstream.enqueue(
      { contents: ["Probability: 15%"] },
      { contents: ["Raising my forecast from 30% to 35%."] },
    );
    const file = await uploadBatchFile(
      client,
      jsonl([
        chatLine("labelled", "forecaster", { answer_type: "binary" }),
        chatLine("revised", "forecaster", { answer_type: "binary" }),
      ]),
    );
    const batch = await waitForBatch(
      client,
      (await client.batches.create(batchRequest(file.id))).id,
    );
    expect(batch.status).toBe("completed");
    const lines = await readResults(client, batch.output_file_id);
    const rules = lines.map((line) => {
      const body = line.response?.body as { choices: WithForecast[] };
      return forecastOf(body.choices[0])?.read_by;
    });
    expect(rules.sort()).toEqual(["label", "revision"]);
  });

  it("is documented in /openapi.json on chat and text choices and on the Responses object", async () => {
    const spec = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      components: { schemas: Record<string, SchemaNode> };
    };
    const { schemas } = spec.components;
    const choiceOf = (name: string) => schemas[name]?.properties?.choices?.items;
    for (const node of [
      choiceOf("ChatCompletionResponse"),
      choiceOf("CompletionResponse"),
      schemas.ResponseObject,
    ]) {
      const forecast = node?.properties?.forecast;
      expect(forecast?.properties?.read_by?.type).toBe("string");
      expect(forecast?.properties?.read_by?.description).toMatch(/docs\/answers\.md/);
    }
  });
});

interface SchemaNode {
  type?: string;
  description?: string;
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
}
