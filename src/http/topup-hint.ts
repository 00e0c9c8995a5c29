import type { FastifyRequest } from "fastify";
import { InsufficientCredits } from "../errors.js";
import { nanosToCentsUp, TOPUP_CENTS } from "../payments/amounts.js";
import type { Topups } from "../payments/topups.js";
import { challengeHeaders } from "./payment-problem.js";

const TOPUP_LINK = '</v1/mpp/topup>; rel="payment"';

/**
 * On a server that takes payments, an organization out of credits gets what an MPP client pays
 * by itself: `WWW-Authenticate: Payment` challenges refilling it with the default top-up, or with
 * what the request may cost when that is more. Retried with the credential (and the key in
 * `X-API-Key`), the same request credits the organization and runs. A `Link` (RFC 8288) and a
 * sentence also name the top-up route.
 */
export async function offerTopup(
  error: Error,
  request: FastifyRequest,
  topups: Topups,
): Promise<Error> {
  if (!(error instanceof InsufficientCredits)) return error;
  const amountCents = Math.min(
    TOPUP_CENTS.max,
    Math.max(TOPUP_CENTS.default, nanosToCentsUp(error.requestNanos)),
  );
  return new InsufficientCredits(error.requestNanos, {
    message: `${error.message} Pay one of the challenges in WWW-Authenticate and retry this request with 'Authorization: Payment <credential>' and the API key in X-API-Key, or refill with POST /v1/mpp/topup.`,
    headers: {
      ...error.headers,
      link: TOPUP_LINK,
      "cache-control": "no-store",
      "www-authenticate": (
        await challengeHeaders(
          topups,
          request,
          amountCents,
          request.principal?.organizationId ?? null,
        )
      ).join(", "),
    },
  });
}
