import { type Dispatcher, Pool } from "undici";
import type { InferenceRequest } from "../provider.js";
import { parseRetryAfter } from "./backoff.js";
import { type AttemptFailure, formatFailure, requestFailure, statusFailure } from "./failures.js";
import type { Deployment, OpenAITimeouts } from "./options.js";
import { answersRequest, mediaType, replyFormat } from "./reply-format.js";
import { buildRequestBody, endpointPath } from "./request-body.js";

export type AttemptOutcome =
  | { ok: true; response: Dispatcher.ResponseData }
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

  /** One try: resolves with a readable 2xx response (body unread) or the reason it failed. */
  async attempt(
    target: Target,
    request: InferenceRequest,
    stream: boolean,
  ): Promise<AttemptOutcome> {
    const { deployment } = target;
    let response: Dispatcher.ResponseData;
    try {
      response = await target.pool.request({
        method: "POST",
        path: `${target.basePath}${endpointPath(request)}${target.search}`,
        headers: requestHeaders(deployment, stream),
        body: JSON.stringify(buildRequestBody(request, deployment.upstreamModel, stream)),
        signal: request.signal,
        headersTimeout: this.timeouts.headersMs,
        bodyTimeout: this.timeouts.bodyMs,
      });
    } catch (error) {
      return { ok: false, failure: requestFailure(error, request.signal) };
    }
    if (response.statusCode >= 200 && response.statusCode < 300) {
      const contentType = response.headers["content-type"];
      if (answersRequest(replyFormat(contentType), stream)) return { ok: true, response };
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
