import type { FastifyReply, FastifyRequest } from "fastify";
import { challengeHeader } from "../payments/challenge.js";
import type { PaymentProblem } from "../payments/problems.js";
import type { Presentation, Topups } from "../payments/topups.js";

/** Seconds a payer waits before presenting a pending payment's credential again. */
const PENDING_RETRY_AFTER_SECONDS = 2;

/** The request's `Idempotency-Key` (draft-ietf-httpapi-idempotency-key-header), if usable. */
function idempotencyKeyOf(request: FastifyRequest): string | null {
  const header = request.headers["idempotency-key"];
  return typeof header === "string" && header.length > 0 && header.length <= 255 ? header : null;
}

/** Who presents a credential: the client's address and its `Idempotency-Key`. */
export function presentationOf(request: FastifyRequest): Presentation {
  return { address: request.ip, idempotencyKey: idempotencyKeyOf(request) };
}

/** The header an MPP client lists the methods it can pay with in, best first. */
export function acceptPaymentOf(request: FastifyRequest): string | undefined {
  const header = request.headers["accept-payment"];
  return Array.isArray(header) ? header.join(", ") : header;
}

/**
 * The `WWW-Authenticate` values of fresh challenges for a top-up of `amountCents`: refilling
 * `refillOrganizationId` (remembered as such), or for a new payer when null.
 */
export async function challengeHeaders(
  topups: Topups,
  request: FastifyRequest,
  amountCents: number,
  refillOrganizationId: string | null,
): Promise<string[]> {
  const accept = acceptPaymentOf(request);
  const issued =
    refillOrganizationId === null
      ? topups.challenges(amountCents, accept)
      : await topups.refillChallenges(refillOrganizationId, amountCents, accept);
  return issued.map(challengeHeader);
}

/**
 * A payment problem as RFC 9457 problem details (plus the OpenAI-style `error` every Sibyl error
 * carries) with fresh challenges (refilling `refillOrganizationId` when not null), never stored
 * by a cache.
 */
export async function sendPaymentProblem(
  reply: FastifyReply,
  request: FastifyRequest,
  topups: Topups,
  amountCents: number,
  problem: PaymentProblem,
  refillOrganizationId: string | null,
) {
  const retry = problem.options.retryChallenge;
  // A payment that may still land: the same challenge again, so a client presents the same
  // credential rather than paying a fresh one.
  const retryAfter = retry ? PENDING_RETRY_AFTER_SECONDS : problem.options.retryAfterSeconds;
  if (retryAfter !== undefined) reply.header("retry-after", String(retryAfter));
  const challenges = retry
    ? [challengeHeader(retry)]
    : await challengeHeaders(topups, request, amountCents, refillOrganizationId);
  return (
    reply
      .status(problem.status)
      .header("cache-control", "no-store")
      .header("www-authenticate", challenges)
      .type("application/problem+json")
      // Sent as text: the response schema of the route it answers for would drop the problem fields.
      .send(
        JSON.stringify({
          type: problem.type,
          title: problem.title,
          status: problem.status,
          detail: problem.message,
          ...(problem.challengeId ? { challengeId: problem.challengeId } : {}),
          error: {
            message: problem.message,
            type: "payment_required",
            param: null,
            code: problem.code,
          },
        }),
      )
  );
}
