import { ServiceError } from "../errors.js";

/** The problem types of the Payment scheme draft that a top-up can end with. */
export type PaymentProblemCode =
  | "payment-required"
  | "malformed-credential"
  | "invalid-challenge"
  | "payment-expired"
  | "verification-failed";

const TITLES: Record<PaymentProblemCode, string> = {
  "payment-required": "Payment Required",
  "malformed-credential": "Malformed Credential",
  "invalid-challenge": "Invalid Challenge",
  "payment-expired": "Payment Expired",
  "verification-failed": "Verification Failed",
};

export const PROBLEM_BASE_URI = "https://paymentauth.org/problems/";

/** A payment that was not proven; answered with 402, the problem and fresh challenges. */
export class PaymentProblem extends Error {
  constructor(
    readonly code: PaymentProblemCode,
    message: string,
    /** The challenge the credential named, when it could be read. */
    readonly challengeId: string | null = null,
  ) {
    super(message);
    this.name = "PaymentProblem";
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

/** The chain node or card processor could not be asked: nothing is known about the payment. */
export const verifierUnavailable = (what: string, reason: string) =>
  new ServiceError("upstream_unavailable", `${what} could not be reached: ${reason}`, {
    code: "payment_verifier_unavailable",
  });
