import { type Dispatcher, Pool } from "undici";
import type { InferenceRequest } from "../provider.js";
import { parseRetryAfter } from "./backoff.js";
import { encodeBody } from "./encode-body.js";
import {
  type AttemptFailure,
  formatFailure,
  requestFailure,
  statusFailure,
  transferError,
} from "./failures.js";
import { inputCharacters } from "./input-size.js";
import type { Deployment, OpenAITimeouts } from "./options.js";
import { answersRequest, mediaType, replyFormat } from "./reply-format.js";
import { buildRequestBody, endpointPath } from "./request-body.js";
import { ExchangeError, readWhole, type WholeReply } from "./whole-reply.js";

/** One try's outcome: the accepted reply, or the reason it failed. */
export type AttemptOutcome<Reply> =
  | { ok: true; reply: Reply }
  | { ok: false; failure: AttemptFailure };

/** A deployment with its URL parsed and its connection pool attached. */
export interface Target {
  deployment: Deployment;
  pool: Pool;
  /** Path prefix of the base URL, without a trailing slash (e.g. `/v1`). */
  basePath: string;
  /** Query string of the base URL, kept for gateways that need one (e.g. an API version). */
  search: string;
}

/** Keep-alive connection pools, one per server origin, shared by deployments on that origin. */
export class Transport {
  private readonly pools = new Map<string, Pool>();

  constructor(private readonly timeouts: OpenAITimeouts) {}

  /** Throws on an invalid base URL, so a misconfiguration shows at startup. */
  target(deployment: Deployment): Target {
    const url = new URL(deployment.baseUrl);
    return {
      deployment,
      pool: this.pool(url.origin),
      basePath: url.pathname.replace(/\/+$/, ""),
      search: url.search,
    };
  }

  /**
   * One try of a non-streamed completion: resolves with the body text of a 2xx JSON reply, read
   * whole, or the reason it failed. The pool's timeouts apply (see `pool`).
   */
  async attemptWhole(target: Target, request: InferenceRequest): Promise<AttemptOutcome<string>> {
    const body = await requestBody(target, request, false);
    let reply: WholeReply;
    try {
      reply = await readWhole(
        target.pool,
        {
          method: "POST",
          path: requestPath(target, request),
          headers: requestHeaders(target.deployment, false),
          body,
        },
        request.signal,
        (statusCode, headers) =>
          !isSuccess(statusCode) || answersRequest(replyFormat(headers["content-type"]), false),
      );
    } catch (error) {
      return { ok: false, failure: exchangeFailure(error, request.signal) };
    }
    const { statusCode, headers, text } = reply;
    if (isSuccess(statusCode)) {
      if (text !== null) return { ok: true, reply: text };
      return {
        ok: false,
        failure: formatFailure(statusCode, mediaType(headers["content-type"]), false),
      };
    }
    const retryAfterMs = parseRetryAfter(headers["retry-after"]);
    return { ok: false, failure: statusFailure(statusCode, text ?? "", retryAfterMs) };
  }

  /** One try: resolves with a readable 2xx response (body unread) or the reason it failed. */
  async attempt(
    target: Target,
    request: InferenceRequest,
    stream: boolean,
  ): Promise<AttemptOutcome<Dispatcher.ResponseData>> {
    const body = await requestBody(target, request, stream);
    let response: Dispatcher.ResponseData;
    try {
      response = await target.pool.request({
        method: "POST",
        path: requestPath(target, request),
        headers: requestHeaders(target.deployment, stream),
        body,
        signal: request.signal,
        headersTimeout: this.timeouts.headersMs,
        bodyTimeout: this.timeouts.bodyMs,
      });
    } catch (error) {
      return { ok: false, failure: requestFailure(error, request.signal) };
    }
    if (isSuccess(response.statusCode)) {
      const contentType = response.headers["content-type"];
      if (answersRequest(replyFormat(contentType), stream)) return { ok: true, reply: response };
      discardBody(response);
      const failure = formatFailure(response.statusCode, mediaType(contentType), stream);
      return { ok: false, failure };
    }
    let bodyText: string;
    try {
      bodyText = await response.body.text();
    } catch (error) {
      return { ok: false, failure: requestFailure(error, request.signal) };
    }
    const retryAfterMs = parseRetryAfter(response.headers["retry-after"]);
    return { ok: false, failure: statusFailure(response.statusCode, bodyText, retryAfterMs) };
  }

  async close(): Promise<void> {
    await Promise.all([...this.pools.values()].map((pool) => pool.close()));
  }

  private pool(origin: string): Pool {
    let pool = this.pools.get(origin);
    if (!pool) {
      pool = new Pool(origin, {
        connect: { timeout: this.timeouts.connectMs },
        headersTimeout: this.timeouts.headersMs,
        bodyTimeout: this.timeouts.bodyMs,
      });
      this.pools.set(origin, pool);
    }
    return pool;
  }
}

function isSuccess(statusCode: number): boolean {
  return statusCode >= 200 && statusCode < 300;
}

function requestPath(target: Target, request: InferenceRequest): string {
  return `${target.basePath}${endpointPath(request)}${target.search}`;
}

function requestBody(target: Target, request: InferenceRequest, stream: boolean): Promise<Buffer> {
  const body = buildRequestBody(request, target.deployment.upstreamModel, stream);
  return encodeBody(body, inputCharacters(request.input));
}

/**
 * A failed whole exchange, as a failed try. A body cut off after a 2xx status ends the call: the
 * server took the request, and another try would run the model again.
 */
function exchangeFailure(error: unknown, signal: AbortSignal | undefined): AttemptFailure {
  const reason = error instanceof ExchangeError ? error.reason : error;
  const statusCode = error instanceof ExchangeError ? error.statusCode : null;
  if (statusCode !== null && isSuccess(statusCode)) {
    return {
      error: transferError(reason, signal),
      retryable: false,
      fallback: false,
      retryAfterMs: null,
    };
  }
  return requestFailure(reason, signal);
}

/** Closes the connection without reading the body; the abort error that follows is expected. */
function discardBody(response: Dispatcher.ResponseData): void {
  response.body.on("error", () => {});
  response.body.destroy();
}

function requestHeaders(deployment: Deployment, stream: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: stream ? "text/event-stream" : "application/json",
  };
  if (deployment.apiKey) headers.authorization = `Bearer ${deployment.apiKey}`;
  return headers;
}
