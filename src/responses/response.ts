import type { ChatCompletionResponse, UrlCitationAnnotation, Usage } from "../completions/types.js";
import { newId } from "../util/ids.js";
import type { ResponseCreateBody } from "./schema.js";
import type {
  ResponseMessageItem,
  ResponseObject,
  ResponseOutputItem,
  ResponseReasoningItem,
  ResponseStatus,
  ResponseUrlCitation,
  ResponseUsage,
} from "./types.js";

export const newResponseId = () => newId("resp_");
export const newMessageId = () => newId("msg_");
export const newReasoningId = () => newId("rs_");

/** A response as it starts: nothing generated yet, the request's settings echoed. */
export function responseFrame(
  body: ResponseCreateBody,
  id: string,
  createdAt: number,
  model: string,
): ResponseObject {
  return {
    id,
    object: "response",
    created_at: createdAt,
    status: "in_progress",
    background: false,
    error: null,
    incomplete_details: null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    model,
    output: [],
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    previous_response_id: null,
    reasoning: { effort: body.reasoning?.effort ?? null, summary: body.reasoning?.summary ?? null },
    service_tier: "default",
    store: false,
    temperature: body.temperature ?? null,
    text: { format: { type: "text" } },
    tool_choice: typeof body.tool_choice === "string" ? body.tool_choice : "auto",
    tools: [],
    top_p: body.top_p ?? null,
    truncation: "disabled",
    usage: null,
    user: body.user ?? null,
    metadata: body.metadata ?? {},
  };
}

/** How a finish reason ends a response: `length` and `content_filter` leave it incomplete. */
export function outcomeOf(finishReason: string | null): {
  status: Extract<ResponseStatus, "completed" | "incomplete">;
  incomplete: { reason: string } | null;
} {
  if (finishReason === "length") {
    return { status: "incomplete", incomplete: { reason: "max_output_tokens" } };
  }
  if (finishReason === "content_filter") {
    return { status: "incomplete", incomplete: { reason: "content_filter" } };
  }
  return { status: "completed", incomplete: null };
}

export function responseUsage(usage: Usage): ResponseUsage {
  return {
    input_tokens: usage.prompt_tokens,
    input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
    output_tokens: usage.completion_tokens,
    output_tokens_details: {
      reasoning_tokens: usage.completion_tokens_details?.reasoning_tokens ?? 0,
    },
    total_tokens: usage.total_tokens,
    cost_usd: usage.cost_usd,
    inference_cost_usd: usage.inference_cost_usd,
    ...(usage.research_cost_usd !== undefined
      ? { research_cost_usd: usage.research_cost_usd }
      : {}),
    ...(usage.classification_cost_usd !== undefined
      ? { classification_cost_usd: usage.classification_cost_usd }
      : {}),
  };
}

/**
 * A chat citation as a Responses one. A citation names a source the model was given, not a span
 * of the reply, so unless it says otherwise it covers the whole text.
 */
export function responseCitation(annotation: UrlCitationAnnotation): ResponseUrlCitation {
  const { url, title, start_index, end_index } = annotation.url_citation;
  return { type: "url_citation", url, title, start_index, end_index };
}

export function messageItem(
  id: string,
  text: string,
  annotations: ResponseUrlCitation[],
  status: ResponseMessageItem["status"],
): ResponseMessageItem {
  return {
    type: "message",
    id,
    role: "assistant",
    status,
    content: [{ type: "output_text", text, annotations, logprobs: [] }],
  };
}

export function reasoningItem(
  id: string,
  thinking: string,
  status: ResponseReasoningItem["status"],
): ResponseReasoningItem {
  return { type: "reasoning", id, status, summary: [{ type: "summary_text", text: thinking }] };
}

/** The whole response for a finished chat completion. */
export function responseFromChat(
  body: ResponseCreateBody,
  chat: ChatCompletionResponse,
): ResponseObject {
  const choice = chat.choices[0];
  const text = choice?.message.content ?? "";
  const { status, incomplete } = outcomeOf(choice?.finish_reason ?? null);
  const output: ResponseOutputItem[] = [];
  if (choice?.message.thinking) {
    output.push(reasoningItem(newReasoningId(), choice.message.thinking, "completed"));
  }
  const annotations = (choice?.message.annotations ?? []).map((annotation) =>
    responseCitation(annotation),
  );
  output.push(messageItem(newMessageId(), text, annotations, status));
  return {
    ...responseFrame(body, newResponseId(), chat.created, chat.model),
    status,
    incomplete_details: incomplete,
    output,
    usage: responseUsage(chat.usage),
    ...(chat.ensemble ? { ensemble: chat.ensemble } : {}),
    ...(chat.research ? { research: chat.research } : {}),
    ...(choice?.forecast ? { forecast: choice.forecast } : {}),
  };
}
