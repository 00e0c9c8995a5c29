/** One OpenAI-compatible server that serves a model. */
export interface Deployment {
  /** API root including the version segment, e.g. `http://127.0.0.1:8000/v1`. */
  baseUrl: string;
  apiKey: string | null;
  /** Model name the server knows the model by. */
  upstreamModel: string;
}

export interface OpenAITimeouts {
  connectMs: number;
  /** Until the response status and headers arrive (covers a non-streamed generation). */
  headersMs: number;
  /** Longest pause between two body chunks. */
  bodyMs: number;
}

export interface RetryPolicy {
  /** Total tries per deployment. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export interface OpenAIProviderOptions {
  /** The first is the primary; the rest are fallbacks serving the same model. */
  deployments: Deployment[];
  timeouts?: Partial<OpenAITimeouts>;
  retry?: Partial<RetryPolicy>;
}

export const DEFAULT_TIMEOUTS: OpenAITimeouts = {
  connectMs: 5_000,
  headersMs: 120_000,
  bodyMs: 300_000,
};

export const DEFAULT_RETRY: RetryPolicy = {
  attempts: 3,
  baseDelayMs: 200,
  maxDelayMs: 5_000,
};
