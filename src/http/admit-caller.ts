import type { FastifyReply, FastifyRequest } from "fastify";
import type { CompletionCaller } from "../completions/types.js";
import { rateLimitHeaders } from "../limits/rate-limiter.js";
import type { Services } from "../services.js";
import { callerKey, principalOf } from "./auth.js";
import { clientGone } from "./sse.js";

/** Counts an inference request against the organization's limit and returns who is calling. */
export async function admitCaller(
  services: Services,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<CompletionCaller> {
  const principal = principalOf(request);
  const state = await services.rateLimiter.hit(principal.organizationId);
  reply.headers(rateLimitHeaders(state));
  return {
    organizationId: principal.organizationId,
    apiKey: callerKey(principal),
    signal: clientGone(request),
    requestId: request.id,
  };
}
