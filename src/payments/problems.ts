import { ServiceError } from "../errors.js";
import type { EchoedChallenge } from "./echoed-challenge.js";

/** The problem types of the Payment scheme draft that a top-up can end with. */
export type PaymentProblemCode =
  | "payment-required"
  | "malformed-credential"
  | "invalid-challenge"
  | "payment-expired"
  | "payment-insufficient"
  | "verification-failed"
  | "method-unsupported";

const TITLES: Record<PaymentProblemCode, string> = {
  "payment-required": "Payment Required",
  "malformed-credential": "Malformed Credential",
  "invalid-challenge": "Invalid Challenge",
  "payment-expired": "Payment Expired",
  "payment-insufficient": "Payment Insufficient",
  "verification-failed": "Verification Failed",
  "method-unsupported": "Method Unsupported",
};

export const PROBLEM_BASE_URI = "https://paymentauth.org/problems/";

/**
 * A payment that was not proven; answered with the problem and fresh challenges: 402, or 400 for
 * a method this server does not take.
 */
export class PaymentProblem extends Error {
  constructor(
    readonly code: PaymentProblemCode,
    message: string,
    /** The challenge the credential named, when it could be read. */
    readonly challengeId: string | null = null,
    readonly options: {
      /** The payment may still land: the answer re-offers this challenge, not fresh ones. */
      retryChallenge?: EchoedChallenge;
      /** Presenting the same credential again after this many seconds can succeed. */
      retryAfterSeconds?: number;
    } = {},
  ) {
    super(message);
    this.name = "PaymentProblem";
  }

  /** The same problem, naming the credential's challenge. */
  about(challengeId: string): PaymentProblem {
    return new PaymentProblem(this.code, this.message, challengeId, this.options);
  }

  get status(): 400 | 402 {
    return this.code === "method-unsupported" ? 400 : 402;
  }

  get title(): string {
    return TITLES[this.code];
  }

  get type(): string {
    return `${PROBLEM_BASE_URI}${this.code}`;
  }
}

export const verificationFailed = (message: string) =>
  new PaymentProblem("verification-failed", message);

/** Seconds between reconciliations, which credit a payment found short of its challenge. */
export const RECONCILIATION_RETRY_AFTER_SECONDS = 60;

/**
 * A payment bound to the challenge but for less than it asks: nothing is credited now, and
 * reconciliation credits what was paid, which the same credential then claims.
 */
export const paymentInsufficient = (what: string) =>
  new PaymentProblem(
    "payment-insufficient",
    `${what} It is not credited now: within a few minutes reconciliation credits the whole cents it paid, and presenting this credential again then answers with them. To top up the full amount instead, pay one of the fresh challenges.`,
    null,
    { retryAfterSeconds: RECONCILIATION_RETRY_AFTER_SECONDS },
  );

/** Seconds a client waits before retrying when the chain node or processor is away. */
export const VERIFIER_RETRY_AFTER_SECONDS = 5;

/**
 * The chain node or card processor could not be asked: nothing is known about the payment, and
 * nothing was consumed, so the same credential works once it answers again (503, Retry-After).
 */
export const verifierUnavailable = (what: string, reason: string) =>
  new ServiceError("unavailable", `${what} could not be reached: ${reason}`, {
    code: "payment_verifier_unavailable",
    headers: { "retry-after": String(VERIFIER_RETRY_AFTER_SECONDS) },
  });

/** The node answers for another chain than the configured one: nothing it says can be credited. */
export const wrongNetwork = (reason: string) =>
  new ServiceError("unavailable", `Nothing is credited while ${reason}.`, {
    code: "payment_network_mismatch",
    headers: { "retry-after": String(VERIFIER_RETRY_AFTER_SECONDS * 12) },
  });

/** A payment sent but not final yet (its broadcast timed out, a card still processing). */
export class PaymentPending extends Error {
  constructor(
    /** The payment's own identifier, as a rail gives it once final. */
    readonly reference: string,
    message: string,
  ) {
    super(message);
    this.name = "PaymentPending";
  }
}
