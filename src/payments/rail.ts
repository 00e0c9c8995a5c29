import type { Credential } from "./credential.js";
import type { JsonValue } from "./jcs.js";

/** What a rail needs to know about the charge being verified. */
export interface ChargeContext {
  challengeId: string;
  realm: string;
  amountCents: number;
}

export interface VerifiedPayment {
  /** The payment's own identifier (transaction hash, payment intent id); redeemable once. */
  reference: string;
}

/** A machine-readable offer for the `x-payment-info` extension of /openapi.json. */
export interface PaymentOffer {
  intent: "charge";
  method: string;
  /** The default top-up, in the currency's base units. */
  amount: string;
  currency: string;
  decimals: number;
  min_amount: string;
  max_amount: string;
  description: string;
  [detail: string]: JsonValue;
}

/**
 * One way to pay (on-chain transfer, card). A rail describes the charge it asks for and proves
 * that a credential paid it; it never writes anything of Sibyl's: redemption is the caller's.
 */
export interface PaymentRail {
  /** Stable kind, used in ledger references and single-use scopes. */
  readonly kind: "chain" | "card";
  /** The method name on the wire. */
  readonly method: string;
  /** The charge request of a challenge for `amountCents`. */
  chargeRequest(amountCents: number): { [key: string]: JsonValue };
  offer(amountCents: { default: number; min: number; max: number }): PaymentOffer;
  /**
   * Proves the credential paid the charge. Throws a PaymentProblem when it did not, a 502
   * ServiceError when the chain node or the processor cannot be asked.
   */
  verify(credential: Credential, charge: ChargeContext): Promise<VerifiedPayment>;
}
