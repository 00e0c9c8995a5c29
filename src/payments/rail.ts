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

/**
 * A machine-readable offer for the `x-payment-info` extension of /openapi.json; the discovery
 * draft's schema allows these members and no others.
 */
export interface PaymentOffer {
  intent: "charge";
  method: string;
  /** The default top-up, in the currency's base units. */
  amount: string;
  currency: string;
  description: string;
}

/** A payment found where it landed (a transfer on chain), whoever presented a credential for it. */
export interface LandedPayment {
  /** As `VerifiedPayment.reference`. */
  reference: string;
  /** What it carries of its challenge: as `PaymentRail.challengeTag`. */
  tag: string;
  amountCents: number;
}

/** Where a rail's payments land, read block by block (reconciliation). */
export interface PaymentScan {
  /** Names what is scanned (chain, token, recipient): one cursor per scope. */
  readonly scope: string;
  head(): Promise<number>;
  /** The first block at or after `timeMs`. */
  blockAt(timeMs: number): Promise<number>;
  /** The payments to this server (`realm`) in blocks `fromBlock` to `toBlock`, inclusive. */
  landed(fromBlock: number, toBlock: number, realm: string): Promise<LandedPayment[]>;
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
  /** The cents a charge request of this rail asks for; null when it names no whole cent. */
  centsOf(request: Record<string, unknown>): number | null;
  offer(amountCents: { default: number; min: number; max: number }): PaymentOffer;
  /** What a payment of this rail carries of its challenge (a memo's nonce, the challenge id). */
  challengeTag(challengeId: string): string;
  /** The payment a credential names, when it can be told without asking anyone. */
  referenceOf(credential: Credential): Promise<string | null>;
  /**
   * Whether the rail's network is the configured one (a chain node's `eth_chainId`). Throws a
   * 503 ServiceError when it is another or cannot be asked.
   */
  checkNetwork?(): Promise<void>;
  /**
   * Where a payment left pending stands now (a card PaymentIntent left `processing`): its cents
   * once it succeeded, null while it is still pending, 0 once it failed for good.
   */
  settledCents?(reference: string): Promise<number | null>;
  /** Where its payments can be found without their credentials, when they can. */
  readonly scan?: PaymentScan;
  /**
   * Proves the credential paid the charge. Throws a PaymentProblem when it did not, a 503
   * ServiceError when the chain node or the processor cannot be asked.
   */
  verify(credential: Credential, charge: ChargeContext): Promise<VerifiedPayment>;
}
