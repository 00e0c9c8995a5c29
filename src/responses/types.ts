/** The shapes of OpenAI's Responses API that Sibyl answers with (text output only). */
import type { EnsembleResult } from "../completions/ensemble/schema.js";
import type { ForecastReading, ResearchReport } from "../completions/types.js";

export interface ResponseUrlCitation {
  type: "url_citation";
  url: string;
  title: string;
  start_index: number;
  end_index: number;
}

export interface ResponseOutputText {
  type: "output_text";
  text: string;
  annotations: ResponseUrlCitation[];
  logprobs: never[];
}

export type ItemStatus = "in_progress" | "completed" | "incomplete";

export interface ResponseMessageItem {
  type: "message";
  id: string;
  role: "assistant";
  status: ItemStatus;
  content: ResponseOutputText[];
}

export interface ResponseSummaryText {
  type: "summary_text";
  text: string;
}

/** The model's thinking, returned as the summary of a reasoning item. */
export interface ResponseReasoningItem {
  type: "reasoning";
  id: string;
  status: ItemStatus;
  summary: ResponseSummaryText[];
}

export type ResponseOutputItem = ResponseMessageItem | ResponseReasoningItem;

/** OpenAI's usage, plus Sibyl's cost fields (USD). */
export interface ResponseUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number; cache_write_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
  cost_usd: number;
  inference_cost_usd: number;
  research_cost_usd?: number;
  classification_cost_usd?: number;
}

export type ResponseStatus = "in_progress" | "completed" | "incomplete" | "failed";

export interface ResponseObject {
  id: string;
  object: "response";
  created_at: number;
  status: ResponseStatus;
  background: false;
  error: { code: string | null; message: string } | null;
  incomplete_details: { reason: string } | null;
  instructions: string | null;
  max_output_tokens: number | null;
  model: string;
  output: ResponseOutputItem[];
  parallel_tool_calls: boolean;
  previous_response_id: null;
  reasoning: { effort: string | null; summary: string | null };
  service_tier: "default";
  /** Sibyl keeps no responses: always false, whatever the request asked. */
  store: false;
  temperature: number | null;
  text: { format: { type: "text" } };
  tool_choice: string;
  tools: never[];
  top_p: number | null;
  truncation: "disabled";
  usage: ResponseUsage | null;
  user: string | null;
  metadata: Record<string, string>;
  /** Set when the request asked for an ensemble: the samples behind the one message. */
  ensemble?: EnsembleResult;
  /** Set when research ran: the sources the model was given, as on chat completions. */
  research?: ResearchReport;
  /** Set when answer_type was set: how the message's answer was read. */
  forecast?: ForecastReading;
}

/** One server-sent event of a streamed response; `type` is also the SSE event name. */
export interface ResponseStreamEvent {
  type: string;
  sequence_number: number;
  [field: string]: unknown;
}
