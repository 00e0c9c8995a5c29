import type {
  ChatCompletionChunk,
  ForecastReading,
  ResearchReport,
  UrlCitationAnnotation,
} from "../completions/types.js";
import { responseParam } from "./request.js";
import {
  messageItem,
  newMessageId,
  newReasoningId,
  outcomeOf,
  reasoningItem,
  responseCitation,
  responseFrame,
  responseUsage,
} from "./response.js";
import type { ResponseCreateBody } from "./schema.js";
import type {
  ItemStatus,
  ResponseObject,
  ResponseOutputItem,
  ResponseStreamEvent,
  ResponseUsage,
} from "./types.js";

/** An output item being generated: where it sits in `output` and its text so far. */
interface OpenItem {
  id: string;
  index: number;
  text: string;
}

/** What an error event says: the OpenAI error object of the failure. */
export interface StreamFailure {
  message: string;
  type: string;
  param: string | null;
  code: string | null;
}

/**
 * A failed response's `error.code` is one of OpenAI's ResponseErrorCode values; Sibyl's own
 * code stays on the error event before it.
 */
function responseErrorCode(
  failure: StreamFailure,
): "rate_limit_exceeded" | "invalid_prompt" | "server_error" {
  if (failure.type === "rate_limit_error" || failure.code === "upstream_busy") {
    return "rate_limit_exceeded";
  }
  return failure.type === "invalid_request_error" ? "invalid_prompt" : "server_error";
}

/**
 * Turns a streamed chat completion into the Responses event stream, in the order OpenAI sends
 * it: response.created and .in_progress; per output item .output_item.added, its parts and text
 * deltas, their .done events and .output_item.done; then response.completed (or .incomplete).
 * Thinking streams as the summary of a reasoning item ahead of the message.
 */
export class ResponseEventStream {
  private sequence = 0;
  private readonly output: ResponseOutputItem[] = [];
  private reasoning: OpenItem | null = null;
  private message: OpenItem | null = null;
  private messageClosed = false;
  private readonly annotations: UrlCitationAnnotation[] = [];

  constructor(
    private readonly body: ResponseCreateBody,
    private readonly chunks: AsyncIterable<ChatCompletionChunk>,
    private readonly id: string,
    private readonly createdAt: number,
  ) {}

  async *events(): AsyncGenerator<ResponseStreamEvent> {
    yield this.event("response.created", { response: this.snapshot() });
    yield this.event("response.in_progress", { response: this.snapshot() });
    let outcome = outcomeOf(null);
    let usage: ResponseUsage | null = null;
    let research: ResearchReport | null = null;
    let forecast: ForecastReading | null = null;
    for await (const chunk of this.chunks) {
      if (chunk.usage) usage = responseUsage(chunk.usage);
      if (chunk.research) research = chunk.research;
      for (const { delta, finish_reason, forecast: reading } of chunk.choices) {
        if (reading) forecast = reading;
        if (delta.thinking) yield* this.think(delta.thinking);
        if (delta.content) yield* this.write(delta.content);
        if (delta.annotations) this.annotations.push(...delta.annotations);
        if (finish_reason) {
          outcome = outcomeOf(finish_reason);
          yield* this.closeItems(outcome.status);
        }
      }
    }
    yield* this.closeItems(outcome.status);
    yield this.event(`response.${outcome.status}`, {
      response: Object.assign(this.snapshot(), {
        status: outcome.status,
        incomplete_details: outcome.incomplete,
        usage,
        ...(research ? { research } : {}),
        ...(forecast ? { forecast } : {}),
      }),
    });
  }

  /** The events that end a stream the pipeline failed: an error, then response.failed. */
  failure(failure: StreamFailure): ResponseStreamEvent[] {
    const error = { ...failure, param: responseParam(failure.param) };
    const output = this.output.map((item) => {
      if (item.id === this.reasoning?.id) {
        return reasoningItem(item.id, this.reasoning.text, "incomplete");
      }
      if (item.id === this.message?.id && !this.messageClosed) {
        return messageItem(item.id, this.message.text, [], "incomplete");
      }
      return item;
    });
    return [
      // Flat as OpenAI documents it, and nested as its servers send it (SDKs then raise it).
      this.event("error", {
        code: error.code,
        message: error.message,
        param: error.param,
        error,
      }),
      this.event("response.failed", {
        response: Object.assign(this.snapshot(), {
          status: "failed",
          error: { code: responseErrorCode(error), message: error.message },
          output,
        }),
      }),
    ];
  }

  private snapshot(): ResponseObject {
    // Added to the new frame rather than spread into a literal: see prepareCompletion
    // (completions/plan.ts).
    return Object.assign(responseFrame(this.body, this.id, this.createdAt, this.body.model), {
      output: [...this.output],
    });
  }

  private event(type: string, fields: Record<string, unknown>): ResponseStreamEvent {
    return { type, sequence_number: this.sequence++, ...fields };
  }

  private *think(delta: string): Generator<ResponseStreamEvent> {
    if (!this.reasoning) {
      const item = reasoningItem(newReasoningId(), "", "in_progress");
      this.reasoning = { id: item.id, index: this.output.length, text: "" };
      this.output.push({ ...item, summary: [] });
      yield this.event("response.output_item.added", {
        output_index: this.reasoning.index,
        item: { ...item, summary: [] },
      });
      yield this.event("response.reasoning_summary_part.added", {
        ...this.summaryPlace(this.reasoning),
        part: { type: "summary_text", text: "" },
      });
    }
    this.reasoning.text += delta;
    // Added to the new place object rather than spread into a literal: see
    // prepareCompletion (completions/plan.ts).
    yield this.event(
      "response.reasoning_summary_text.delta",
      Object.assign(this.summaryPlace(this.reasoning), { delta }),
    );
  }

  private *closeReasoning(): Generator<ResponseStreamEvent> {
    const open = this.reasoning;
    if (!open) return;
    this.reasoning = null;
    const place = this.summaryPlace(open);
    yield this.event("response.reasoning_summary_text.done", { ...place, text: open.text });
    yield this.event("response.reasoning_summary_part.done", {
      ...place,
      part: { type: "summary_text", text: open.text },
    });
    const item = reasoningItem(open.id, open.text, "completed");
    this.output[open.index] = item;
    yield this.event("response.output_item.done", { output_index: open.index, item });
  }

  private *write(delta: string): Generator<ResponseStreamEvent> {
    yield* this.closeReasoning();
    const message = yield* this.openMessage();
    message.text += delta;
    yield this.event(
      "response.output_text.delta",
      Object.assign(this.textPlace(message), { delta, logprobs: [] }),
    );
  }

  private *openMessage(): Generator<ResponseStreamEvent, OpenItem> {
    if (this.message) return this.message;
    const message: OpenItem = { id: newMessageId(), index: this.output.length, text: "" };
    this.message = message;
    const item = { ...messageItem(message.id, "", [], "in_progress"), content: [] };
    this.output.push(item);
    yield this.event("response.output_item.added", { output_index: message.index, item });
    yield this.event("response.content_part.added", {
      ...this.textPlace(message),
      part: { type: "output_text", text: "", annotations: [], logprobs: [] },
    });
    return message;
  }

  private *closeItems(status: ItemStatus): Generator<ResponseStreamEvent> {
    yield* this.closeReasoning();
    if (this.messageClosed) return;
    const message = yield* this.openMessage();
    this.messageClosed = true;
    const place = this.textPlace(message);
    const annotations = this.annotations.map((annotation) => responseCitation(annotation));
    for (const [annotationIndex, annotation] of annotations.entries()) {
      yield this.event("response.output_text.annotation.added", {
        ...place,
        annotation_index: annotationIndex,
        annotation,
      });
    }
    yield this.event("response.output_text.done", { ...place, text: message.text, logprobs: [] });
    const item = messageItem(message.id, message.text, annotations, status);
    yield this.event("response.content_part.done", { ...place, part: item.content[0] });
    this.output[message.index] = item;
    yield this.event("response.output_item.done", { output_index: message.index, item });
  }

  private summaryPlace(item: OpenItem) {
    return { item_id: item.id, output_index: item.index, summary_index: 0 };
  }

  private textPlace(item: OpenItem) {
    return { item_id: item.id, output_index: item.index, content_index: 0 };
  }
}
