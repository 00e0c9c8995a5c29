import type { AnswerType, OptionMap } from "../forecast/types.js";

export type ChatRole = "system" | "user" | "assistant";

export interface ChatMessage {
  role: ChatRole;
  content: string;
}

export type ReasoningEffort = "low" | "medium" | "high";

/** Sampling parameters, passed to the model server as given (null/undefined = not sent). */
export interface SamplingParams {
  n: number;
  temperature?: number | null;
  top_p?: number | null;
  top_k?: number | null;
  min_p?: number | null;
  max_tokens?: number | null;
  stop?: string[] | null;
  seed?: number | null;
  reasoning_effort?: ReasoningEffort | null;
}

export type InferenceInput =
  | { kind: "chat"; messages: ChatMessage[] }
  | { kind: "text"; prompt: string | string[] };

/**
 * What a forecast request expects; only the built-in baseline reads it (real models read the
 * guidance text in the prompt).
 */
export interface ForecastHint {
  answerType: AnswerType;
  question: string;
  options?: OptionMap;
}

/** Output constrained to a JSON Schema, as OpenAI-compatible servers take `response_format`. */
export interface ResponseFormat {
  type: "json_schema";
  json_schema: { name: string; strict: boolean; schema: Record<string, unknown> };
}

export interface InferenceRequest {
  input: InferenceInput;
  params: SamplingParams;
  /** Sent as `response_format`; only to servers configured to support it. */
  responseFormat?: ResponseFormat;
  forecastHint?: ForecastHint;
  /** Aborting it stops the upstream request (client went away, batch cancelled). */
  signal?: AbortSignal;
}

export type FinishReason = "stop" | "length" | "content_filter" | "tool_calls" | string;

export interface ProviderChoice {
  index: number;
  /** Full reply text (chat content or completion text). */
  text: string;
  /** Reasoning chain when the model returned one. */
  thinking: string | null;
  finishReason: FinishReason | null;
}

export interface ProviderUsage {
  promptTokens: number;
  completionTokens: number;
  reasoningTokens: number;
}

export interface InferenceResult {
  choices: ProviderChoice[];
  /** Null when the server reported none; the caller then counts tokens itself. */
  usage: ProviderUsage | null;
}

export type StreamEvent =
  | { type: "delta"; index: number; text?: string; thinking?: string }
  | { type: "finish"; index: number; finishReason: FinishReason | null }
  | { type: "usage"; usage: ProviderUsage };

/** One model backend. Knows neither money nor storage. */
export interface InferenceProvider {
  complete(request: InferenceRequest): Promise<InferenceResult>;
  /** Resolves once the upstream accepted the request (status 200), so failures before any byte can still be retried or reported as HTTP errors. */
  stream(request: InferenceRequest): Promise<AsyncIterable<StreamEvent>>;
  /**
   * Asked again, it replies alike (the built-in baseline): a reply without an answer is not
   * worth a repair call.
   */
  readonly repliesAlike?: boolean;
}
