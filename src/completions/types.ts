/** Response shapes of interface 2.6, 2.7 and 2.9, and the service contract behind the routes. */
import type { Db } from "../db/database.js";
import type { EnsembleResult } from "./ensemble/schema.js";
import type { ChatCompletionBody, CompletionBody } from "./schema.js";

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  cost_usd: number;
  inference_cost_usd: number;
  research_cost_usd?: number;
  classification_cost_usd?: number;
  completion_tokens_details?: { reasoning_tokens: number };
}

export interface UrlCitationAnnotation {
  type: "url_citation";
  url_citation: { url: string; title: string | null };
}

export interface ChatCompletionResponse {
  id: string;
  object: "chat.completion";
  created: number;
  model: string;
  choices: {
    index: number;
    message: {
      role: "assistant";
      content: string;
      thinking: string | null;
      annotations?: UrlCitationAnnotation[] | null;
    };
    finish_reason: string | null;
  }[];
  usage: Usage;
  /** Set when the request asked for an ensemble: the samples behind the one choice. */
  ensemble?: EnsembleResult;
}

export interface ChatCompletionChunk {
  id: string;
  object: "chat.completion.chunk";
  created: number;
  model: string;
  choices: {
    index: number;
    delta: {
      role?: "assistant";
      content?: string;
      thinking?: string;
      annotations?: UrlCitationAnnotation[];
    };
    finish_reason: string | null;
  }[];
  usage?: Usage | null;
}

export interface TextCompletionResponse {
  id: string;
  object: "text_completion";
  created: number;
  model: string;
  choices: { index: number; text: string; finish_reason: string | null }[];
  usage: Usage;
}

export interface TextCompletionChunk {
  id: string;
  object: "text_completion";
  created: number;
  model: string;
  choices: { index: number; text: string; finish_reason: string | null }[];
  usage?: Usage | null;
}

/** Who is asking and on what terms. */
export interface CompletionCaller {
  organizationId: string;
  /**
   * The API key making the request: usage is recorded under it, and when the key has a spend
   * limit its holds and charges count against that limit.
   */
  apiKey?: { id: string; spendLimited: boolean };
  /** Scales every cost (batch lines use `batches.price_multiplier`). Default 1. */
  priceMultiplier?: number;
  /**
   * Ledger reference of the charge (default: the completion id). A reference given here names
   * work that is charged once at most, such as a batch line that a crash made run again: the
   * database refuses a second charge under it, and that run's hold is released instead.
   */
  billingReference?: string;
  /**
   * Runs in the transaction that charges the request (non-streaming only): the charge is kept
   * only if this succeeds, so whatever it records is committed together with the charge. A
   * batch line records its result here.
   */
  recordWithCharge?: (
    tx: Db,
    response: ChatCompletionResponse | TextCompletionResponse,
  ) => Promise<void>;
  /** Aborts upstream work; what was generated until then is still charged. */
  signal?: AbortSignal;
}

/**
 * The one completion pipeline (research → guidance → inference → answer → billing), used by the
 * HTTP routes and by batch workers alike. Failures are ServiceError or UpstreamError.
 */
export interface CompletionService {
  chat(caller: CompletionCaller, body: ChatCompletionBody): Promise<ChatCompletionResponse>;
  streamChat(
    caller: CompletionCaller,
    body: ChatCompletionBody,
  ): Promise<AsyncIterable<ChatCompletionChunk>>;
  text(caller: CompletionCaller, body: CompletionBody): Promise<TextCompletionResponse>;
  streamText(
    caller: CompletionCaller,
    body: CompletionBody,
  ): Promise<AsyncIterable<TextCompletionChunk>>;
}
