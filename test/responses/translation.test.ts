import { ResponseStream } from "openai/lib/responses/ResponseStream";
import { describe, expect, it } from "vitest";
import type {
  ChatCompletionChunk,
  ChatCompletionResponse,
  UrlCitationAnnotation,
} from "../../src/completions/types.js";
import { ResponseEventStream } from "../../src/responses/events.js";
import { responseFromChat } from "../../src/responses/response.js";
import type { ResponseCreateBody } from "../../src/responses/schema.js";
import type { ResponseStreamEvent } from "../../src/responses/types.js";

/**
 * The translation on its own, for what the pipeline does not produce yet in the running server
 * (research citations) and for interleavings a model server may send: the events go through the
 * openai SDK's own stream accumulator, which rejects any event out of place.
 */

const body: ResponseCreateBody = { model: "m", input: "Q" };
const usage = {
  prompt_tokens: 10,
  completion_tokens: 4,
  total_tokens: 14,
  cost_usd: 0.0001,
  inference_cost_usd: 0.00008,
  research_cost_usd: 0.00002,
};
const citation = (url: string, title: string): UrlCitationAnnotation => ({
  type: "url_citation",
  url_citation: { url, title, start_index: 0, end_index: 3 },
});

function chunk(
  delta: ChatCompletionChunk["choices"][number]["delta"],
  finish: string | null = null,
): ChatCompletionChunk {
  return {
    id: "chatcmpl-1",
    object: "chat.completion.chunk",
    created: 1,
    model: "m",
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  };
}

const usageChunk: ChatCompletionChunk = { ...chunk({}), choices: [], usage };

async function* from<T>(items: T[]): AsyncGenerator<T> {
  yield* items;
}

async function translate(chunks: ChatCompletionChunk[]): Promise<ResponseStreamEvent[]> {
  const events: ResponseStreamEvent[] = [];
  const stream = new ResponseEventStream(body, from(chunks), "resp_1", 1);
  for await (const event of stream.events()) events.push(event);
  return events;
}

/** Replays the events through the SDK's accumulator and returns its final response. */
function accumulated(events: ResponseStreamEvent[]) {
  const lines = events.map((event) => `${JSON.stringify(event)}\n`).join("");
  const readable = new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(lines));
      controller.close();
    },
  });
  return ResponseStream.fromReadableStream(readable).finalResponse();
}

describe("citations", () => {
  it("become output_text annotations of a whole response, with the spans the reply cites", () => {
    const chat: ChatCompletionResponse = {
      id: "chatcmpl-1",
      object: "chat.completion",
      created: 1,
      model: "m",
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: "Likely.",
            refusal: null,
            thinking: null,
            annotations: [
              citation("https://a.example/1", "A"),
              citation("https://b.example", "b.example"),
            ],
          },
          logprobs: null,
          finish_reason: "stop",
        },
      ],
      usage,
    };
    const response = responseFromChat(body, chat);
    expect(response.output[0]).toMatchObject({
      type: "message",
      content: [
        {
          text: "Likely.",
          annotations: [
            {
              type: "url_citation",
              url: "https://a.example/1",
              title: "A",
              start_index: 0,
              end_index: 3,
            },
            {
              type: "url_citation",
              url: "https://b.example",
              title: "b.example",
              start_index: 0,
              end_index: 3,
            },
          ],
        },
      ],
    });
    expect(response.usage).toMatchObject({ research_cost_usd: 0.00002, cost_usd: 0.0001 });
  });

  it("stream as annotation.added events before output_text.done", async () => {
    const events = await translate([
      chunk({ role: "assistant", annotations: [citation("https://a.example/1", "A")] }),
      chunk({ content: "Likely" }),
      chunk({ content: "." }),
      chunk({}, "stop"),
      usageChunk,
    ]);
    const types = events.map((event) => event.type);
    const added = types.indexOf("response.output_text.annotation.added");
    expect(added).toBeGreaterThan(types.lastIndexOf("response.output_text.delta"));
    expect(types[added + 1]).toBe("response.output_text.done");
    expect(events[added]).toMatchObject({
      annotation_index: 0,
      annotation: { url: "https://a.example/1", start_index: 0, end_index: 3 },
    });
    const response = await accumulated(events);
    expect(response.output_text).toBe("Likely.");
    const [message] = response.output;
    expect(message?.type === "message" && message.content[0]).toMatchObject({
      annotations: [{ type: "url_citation", url: "https://a.example/1", title: "A" }],
    });
    expect(response.usage).toMatchObject({ input_tokens: 10, research_cost_usd: 0.00002 });
  });
});

describe("interleavings", () => {
  it("an empty reply still has a message item", async () => {
    const events = await translate([chunk({ role: "assistant" }), chunk({}, "stop"), usageChunk]);
    const response = await accumulated(events);
    expect(response.status).toBe("completed");
    expect(response.output).toMatchObject([{ type: "message", content: [{ text: "" }] }]);
  });

  it("thinking after the text began opens a second reasoning item, losing nothing", async () => {
    const events = await translate([
      chunk({ role: "assistant", thinking: "First " }),
      chunk({ thinking: "thought.", content: "Yes" }),
      chunk({ thinking: "Second thought." }),
      chunk({ content: "." }),
      chunk({}, "stop"),
      usageChunk,
    ]);
    const response = await accumulated(events);
    expect(response.output_text).toBe("Yes.");
    expect(response.output.map((item) => item.type)).toEqual(["reasoning", "message", "reasoning"]);
    expect(response.output[0]).toMatchObject({ summary: [{ text: "First thought." }] });
    expect(response.output[2]).toMatchObject({ summary: [{ text: "Second thought." }] });
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, i) => i));
  });

  it("a failure names the Responses field and marks open items incomplete", async () => {
    async function* breaking(): AsyncGenerator<ChatCompletionChunk> {
      yield chunk({ role: "assistant", content: "Par" });
      throw new Error("upstream broke");
    }
    const stream = new ResponseEventStream(body, breaking(), "resp_1", 1);
    const events: ResponseStreamEvent[] = [];
    const reading = (async () => {
      for await (const event of stream.events()) events.push(event);
    })();
    await expect(reading).rejects.toThrow("upstream broke");
    const [error, failed] = stream.failure({
      message: "too long",
      type: "invalid_request_error",
      param: "messages",
      code: "context_length_exceeded",
    });
    expect(error).toMatchObject({
      type: "error",
      code: "context_length_exceeded",
      param: "input",
      error: { param: "input", type: "invalid_request_error" },
    });
    expect(failed).toMatchObject({
      type: "response.failed",
      response: {
        status: "failed",
        error: { code: "invalid_prompt", message: "too long" },
        output: [{ type: "message", status: "incomplete", content: [{ text: "Par" }] }],
      },
    });
    const sequence = [...events, error, failed].map((event) => event?.sequence_number);
    expect(sequence).toEqual(sequence.map((_, i) => i));
  });
});
