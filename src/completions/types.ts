/** Response shapes of chat and text completions, and the service contract behind the routes. */
import type { Static } from "@sinclair/typebox";
import type { Db } from "../db/database.js";
import type { EnsembleResult } from "./ensemble/schema.js";
import type {
  ForecastReadingSchema,
  ResearchReportSchema,
  UrlCitationAnnotationSchema,
  UsageSchema,
} from "./response-schema.js";
import type { ChatCompletionBody, CompletionBody } from "./schema.js";

export type Usage = Static<typeof UsageSchema>;
export type UrlCitationAnnotation = Static<typeof UrlCitationAnnotationSchema>;
/**
 * The `forecast` extension of a choice with answer_type: how its answer was read. `read_by` names
 * the rule that produced the answer in the tags (docs/answers.md lists them), or with no answer
 * the rule that found the reply states none.
 */
export type ForecastReading = Static<typeof ForecastReadingSchema>;

/** The `research` extension: what the model was given, and what was kept from it. */
export type ResearchReport = Static<typeof ResearchReportSchema>;

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
      /** OpenAI's field for a safety refusal: Sibyl's models never refuse that way. */
      refusal: null;
      thinking: string | null;
      annotations?: UrlCitationAnnotation[] | null;
    };
    /** Always null: token log probabilities are not returned. */
    logprobs: null;
    finish_reason: string | null;
    forecast?: ForecastReading;
  }[];
  usage: Usage;
  /** Set when the request asked for an ensemble: the samples behind the one choice. */
  ensemble?: EnsembleResult;
  /** Set when research ran. */
  research?: ResearchReport;
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
    logprobs: null;
    finish_reason: string | null;
    /** On the choice's last chunk, when answer_type was set. */
    forecast?: ForecastReading;
  }[];
  usage?: Usage | null;
  /** On the stream's last chunk, when research ran. */
  research?: ResearchReport;
}

/** A text completion choice; `logprobs` is always null (not returned), as OpenAI sends it unused. */
export interface TextChoice {
  index: number;
  text: string;
  logprobs: null;
  finish_reason: string | null;
  /** When answer_type was set; on a stream, on the choice's last chunk. */
  forecast?: ForecastReading;
}

export interface TextCompletionResponse {
  id: string;
  object: "text_completion";
  created: number;
  model: string;
  choices: TextChoice[];
  usage: Usage;
}

export interface TextCompletionChunk {
  id: string;
  object: "text_completion";
  created: number;
  model: string;
  choices: TextChoice[];
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
  /** The request's id (HTTP `x-request-id`, a batch line's id): a recorded forecast names it. */
  requestId?: string;
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
