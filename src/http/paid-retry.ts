import type { FastifyReply, FastifyRequest } from "fastify";
import type { KeyHolder } from "../auth/api-keys.js";
import { TOPUP_CENTS } from "../payments/amounts.js";
import { PaymentProblem } from "../payments/problems.js";
import type { Topups } from "../payments/topups.js";
import { presentationOf, sendPaymentProblem } from "./payment-problem.js";

/**
 * The retry of a request that answered 402 for want of credits, carrying a Payment credential
 * for one of its challenges: the payment refills the key's organization first, then the request
 * runs as usual, its answer carrying the `Payment-Receipt`. Returns false when it answered the
 * request itself (the credential proved no payment).
 */
export async function redeemOnRetry(
  topups: Topups,
  authorization: string,
  holder: KeyHolder,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<boolean> {
  try {
    const result = await topups.redeem(
      authorization,
      null,
      holder.organizationId,
      presentationOf(request),
    );
    reply.header("payment-receipt", result.receipt);
    return true;
  } catch (error) {
    if (!(error instanceof PaymentProblem)) throw error;
    await sendPaymentProblem(
      reply,
      request,
      topups,
      TOPUP_CENTS.default,
      error,
      holder.organizationId,
    );
    return false;
  }
}
