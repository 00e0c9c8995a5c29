import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { countChatTokens, countTextTokens } from "../../src/inference/tokens.js";
import { type CompletionsEnv, MODEL, startCompletionsEnv } from "../completions/support/env.js";
import { balanceNanos, charges, costNanos, usd } from "../completions/support/money.js";
import { upstreamBody } from "../completions/support/sibyl-types.js";
import { post } from "../completions/support/sse.js";
import { eventually } from "../support/polling.js";
import { type Json, type NamedEvent, namedEvents, responseOf } from "./support/responses.js";

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

async function streamed(body: Json, key = apiKey): Promise<NamedEvent[]> {
  const response = await post(env.server.url, "/v1/responses", key, { stream: true, ...body });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
  return namedEvents(await response.text());
}

const types = (events: NamedEvent[]) => events.map((event) => event.event);

describe("the Responses event stream", () => {
  it("sends OpenAI's events in order, each named after its type and numbered from 0", async () => {
    env.fake.enqueue({
      contents: ["It will pass narrowly."],
      usage: { prompt_tokens: 30, completion_tokens: 7 },
    });
    const events = await streamed({ model: MODEL, input: question });
    expect(events.every(({ event, data }) => data.type === event)).toBe(true);
    expect(events.map(({ data }) => data.sequence_number)).toEqual(events.map((_, i) => i));
    const deltas = events.filter(({ event }) => event === "response.output_text.delta");
    expect(deltas.length).toBeGreaterThan(1);
    expect(types(events)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.content_part.added",
      ...deltas.map(() => "response.output_text.delta"),
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.completed",
    ]);
    expect(deltas.map(({ data }) => data.delta).join("")).toBe("It will pass narrowly.");

    const created = responseOf(events[0]);
    expect(created).toMatchObject({ object: "response", status: "in_progress", output: [] });
    expect(created.id).toMatch(/^resp_/);
    const added = events[2]?.data as Json & { item: Json };
    expect(added).toMatchObject({
      output_index: 0,
      item: { type: "message", status: "in_progress" },
    });
    const itemId = added.item.id;
    for (const { data } of events.slice(3, -2)) {
      expect(data).toMatchObject({ item_id: itemId, output_index: 0, content_index: 0 });
    }
    expect(events.at(-3)?.data).toMatchObject({
      type: "response.content_part.done",
      part: { type: "output_text", text: "It will pass narrowly.", annotations: [] },
    });
    const completed = responseOf(events.at(-1));
    expect(completed).toMatchObject({
      id: created.id,
      status: "completed",
      output: [
        {
          id: itemId,
          type: "message",
          status: "completed",
          content: [{ type: "output_text", text: "It will pass narrowly." }],
        },
      ],
      usage: { input_tokens: 30, output_tokens: 7, total_tokens: 37 },
    });
    expect((completed.usage as Json).cost_usd).toBe(usd(costNanos(30, 7)));
    expect(upstreamBody(env.fake.requests[0]?.body).stream).toBe(true);
  });

  it("streams thinking as a reasoning item's summary before the message", async () => {
    env.fake.enqueue({
      contents: ["Probably not."],
      reasoning: { field: "reasoning_content", text: "Weigh the votes first." },
    });
    const events = await streamed({ model: MODEL, input: question });
    const order = types(events).filter((type) => !type.endsWith(".delta"));
    expect(order).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.reasoning_summary_part.added",
      "response.reasoning_summary_text.done",
      "response.reasoning_summary_part.done",
      "response.output_item.done",
      "response.output_item.added",
      "response.content_part.added",
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.completed",
    ]);
    const thinking = events
      .filter(({ event }) => event === "response.reasoning_summary_text.delta")
      .map(({ data }) => data.delta)
      .join("");
    expect(thinking).toBe("Weigh the votes first.");
    const output = responseOf(events.at(-1)).output;
    expect(output).toMatchObject([
      { type: "reasoning", summary: [{ type: "summary_text", text: "Weigh the votes first." }] },
      { type: "message", content: [{ text: "Probably not." }] },
    ]);
    const messageAdded = events.filter(({ event }) => event === "response.output_item.added")[1];
    expect(messageAdded?.data.output_index).toBe(1);
  });

  it("sends the answer tags as the last text delta", async () => {
    env.fake.enqueue({ contents: ["Thinking it through... Probability: 64%"] });
    const events = await streamed({ model: MODEL, input: question, answer_type: "binary" });
    const deltas = events.filter(({ event }) => event === "response.output_text.delta");
    expect(deltas.at(-1)?.data.delta).toBe("\n\n<answer>0.64</answer>");
    const done = events.find(({ event }) => event === "response.output_text.done");
    expect(done?.data.text).toBe(
      "Thinking it through... Probability: 64%\n\n<answer>0.64</answer>",
    );
  });

  it("ends with response.incomplete when the reply hit max_output_tokens", async () => {
    env.fake.enqueue({ contents: ["It will"], finishReason: "length" });
    const events = await streamed({ model: MODEL, input: question, max_output_tokens: 2 });
    expect(events.at(-1)?.event).toBe("response.incomplete");
    expect(events.at(-1)?.data.response).toMatchObject({
      status: "incomplete",
      incomplete_details: { reason: "max_output_tokens" },
      output: [{ type: "message", status: "incomplete" }],
    });
  });

  it("ends a stream the upstream broke with an error event and response.failed", async () => {
    env.fake.enqueue({ contents: ["It will pass narrowly, I think."], failAfterChunks: 3 });
    const events = await streamed({ model: MODEL, input: question });
    expect(types(events).slice(-2)).toEqual(["error", "response.failed"]);
    const error = events.at(-2)?.data as Json & { error: Json };
    expect(typeof error.message).toBe("string");
    expect(error.error).toMatchObject({ message: error.message, code: error.code });
    const failed = responseOf(events.at(-1));
    expect(failed).toMatchObject({ status: "failed", error: { code: "server_error" } });
    expect(events.map(({ data }) => data.sequence_number)).toEqual(events.map((_, i) => i));
  });

  it("answers errors before the stream starts as ordinary JSON errors", async () => {
    const response = await post(env.server.url, "/v1/responses", apiKey, {
      model: "no-such-model",
      input: question,
      stream: true,
    });
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  });
});

describe("a client leaving mid-stream", () => {
  it("stops the upstream request and charges only what was generated", async () => {
    const org = await env.org("1");
    const longReply = Array.from({ length: 60 }, (_, i) => `word${i}`).join(" ");
    env.fake.enqueue({ contents: [longReply], chunkDelayMs: 25, usage: null });
    const controller = new AbortController();
    const response = await post(
      env.server.url,
      "/v1/responses",
      org.apiKey,
      { model: MODEL, input: question, stream: true },
      { signal: controller.signal },
    );
    const reader = response.body?.getReader();
    if (!reader) throw new Error("no body");
    let text = "";
    while (!text.includes("response.output_text.delta")) {
      const { value } = await reader.read();
      text += new TextDecoder().decode(value);
    }
    controller.abort();
    expect(await env.fake.requests[0]?.settled).toBe("aborted");
    const [charge] = await eventually(async () => {
      const found = await charges(env.server.services, org.organizationId);
      return found.length > 0 ? found : undefined;
    });
    const charged = -(charge?.amount_nanos ?? 0);
    const sent = upstreamBody(env.fake.requests[0]?.body).messages ?? [];
    const promptTokens = countChatTokens(
      sent.map((m) => ({ role: m.role as "system" | "user" | "assistant", content: m.content })),
    );
    expect(env.fake.requests[0]?.chunksSent).toBeLessThan(20);
    expect(charged).toBeGreaterThan(costNanos(promptTokens, 0));
    expect(charged).toBeLessThan(costNanos(promptTokens, countTextTokens(longReply)));
    expect(await balanceNanos(env.server.url, org.apiKey)).toBe(1e9 - charged);
  });
});
