import type { CardRail as CardRailConfig } from "../../config/resolved.js";
import { baseUnitsToCents, dollarText } from "../amounts.js";
import { type Credential, malformed } from "../credential.js";
import { PaymentPending, verificationFailed } from "../problems.js";
import type { ChargeContext, PaymentOffer, PaymentRail, VerifiedPayment } from "../rail.js";
import type { CardProcessor } from "./card-api.js";

const SHARED_PAYMENT_TOKEN = /^[A-Za-z0-9_]{1,255}$/;

/**
 * A card (or Link) payment with a shared payment token, as the `stripe` charge method specifies:
 * one PaymentIntent, created and confirmed at once. Its idempotency key is the challenge id, so a
 * challenge can charge a card once: a retried credential gets the same PaymentIntent back (and is
 * then refused by the single-use redemption), another token for the same challenge is refused by
 * the processor.
 */
export class CardPaymentRail implements PaymentRail {
  readonly kind = "card";
  readonly method: string;

  constructor(
    private readonly config: CardRailConfig,
    private readonly processor: CardProcessor,
  ) {
    this.method = config.method;
  }

  chargeRequest(amountCents: number) {
    return {
      amount: String(amountCents),
      currency: "usd",
      methodDetails: {
        networkId: this.config.network_id,
        paymentMethodTypes: this.config.payment_method_types,
      },
    };
  }

  challengeTag(challengeId: string): string {
    return challengeId;
  }

  /** A shared payment token does not name the PaymentIntent it becomes. */
  async referenceOf(): Promise<string | null> {
    return null;
  }

  centsOf(request: Record<string, unknown>): number | null {
    return baseUnitsToCents(request.amount, 2);
  }

  offer(cents: { default: number; min: number; max: number }): PaymentOffer {
    return {
      intent: "charge",
      method: this.method,
      amount: String(cents.default),
      currency: "usd",
      description: `Credits in USD, in cents; ${dollarText(cents.default)} by default, ${dollarText(cents.min)} to ${dollarText(cents.max)} (amount_cents).`,
    };
  }

  async settledCents(reference: string): Promise<number | null> {
    const answer = await this.processor.retrievePaymentIntent(reference);
    if (answer.kind === "refused") return 0;
    if (answer.status === "succeeded") {
      return answer.currency.toLowerCase() === "usd" ? answer.amount : 0;
    }
    return answer.status === "processing" ? null : 0;
  }

  async verify(credential: Credential, charge: ChargeContext): Promise<VerifiedPayment> {
    const { spt } = credential.payload;
    if (typeof spt !== "string" || !SHARED_PAYMENT_TOKEN.test(spt)) {
      throw malformed("'payload.spt' must be a shared payment token");
    }
    const answer = await this.processor.createPaymentIntent({
      // The card-charge draft: the challenge id is the idempotency key, so a challenge charges
      // a card once whatever token or retry comes with it.
      idempotencyKey: charge.challengeId,
      form: {
        amount: String(charge.amountCents),
        currency: "usd",
        confirm: "true",
        "automatic_payment_methods[enabled]": "true",
        "automatic_payment_methods[allow_redirects]": "never",
        shared_payment_granted_token: spt,
        "metadata[mpp_challenge_id]": charge.challengeId,
        "metadata[machine_payment]": "true",
      },
    });
    if (answer.kind === "refused") {
      throw verificationFailed(`The card payment was refused: ${answer.message}`);
    }
    if (answer.status === "processing") {
      throw new PaymentPending(answer.id, `PaymentIntent ${answer.id} is still processing.`);
    }
    if (answer.status !== "succeeded") {
      throw verificationFailed(`PaymentIntent ${answer.id} is ${answer.status}, not succeeded.`);
    }
    if (answer.amount !== charge.amountCents || answer.currency.toLowerCase() !== "usd") {
      throw verificationFailed(
        `PaymentIntent ${answer.id} is not for ${dollarText(charge.amountCents)}.`,
      );
    }
    return { reference: answer.id };
  }
}
