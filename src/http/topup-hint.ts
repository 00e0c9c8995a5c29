import { ServiceError } from "../errors.js";

const TOPUP_LINK = '</v1/mpp/topup>; rel="payment"';

/**
 * On a server that takes payments, an organization out of credits is told where an agent refills
 * by itself: a `Link` (RFC 8288) to the top-up route and a sentence naming it.
 */
export function pointToTopup(error: Error): Error {
  if (!(error instanceof ServiceError) || error.code !== "insufficient_credits") return error;
  return new ServiceError(
    error.kind,
    `${error.message} Agents refill with POST /v1/mpp/topup and their key in X-API-Key.`,
    { code: error.code, param: error.param, headers: { ...error.headers, link: TOPUP_LINK } },
  );
}
