import type { Accounts } from "../auth/accounts.js";
import type { EntryDetails, Ledger } from "../billing/ledger.js";
import type { Db } from "../db/database.js";
import { claimOnce } from "../db/single-use.js";
import { type Clock, unixSeconds } from "../util/clock.js";
import { randomBase62 } from "../util/ids.js";
import { centsToNanos, dollarText, TOPUP_CENTS } from "./amounts.js";
import type { Challenge, ChallengeSigner } from "./challenge.js";
import { type Credential, parseCredential } from "./credential.js";
import { encodeCanonical } from "./jcs.js";
import { PaymentProblem, verificationFailed } from "./problems.js";
import type { PaymentOffer, PaymentRail, VerifiedPayment } from "./rail.js";
import { paymentReceipt } from "./receipt.js";

export interface TopupsOptions {
  db: Db;
  clock: Clock;
  ledger: Ledger;
  accounts: Accounts;
  signer: ChallengeSigner;
  /** In the order their challenges are offered. */
  rails: PaymentRail[];
  /** The protection space of the challenges: the public host. */
  realm: string;
  challengeTtlSeconds: number;
}

export interface TopupResult {
  organizationId: string;
  creditedCents: number;
  /** Issued once, to a new payer; null on a refill. */
  apiKey: string | null;
  apiKeyId: string | null;
  /** The `Payment-Receipt` header value. */
  receipt: string;
}

const INTENT = "charge";
const CHALLENGE_SCOPE = "mpp-challenge";

/**
 * Machine-payment top-ups (HTTP `Payment` scheme, charge intent): challenges for an amount, and
 * the redemption of a paid credential into credits, for a new organization with a new key or an
 * existing one. Nothing is written until the payment is proven; the redemption then claims the
 * challenge and the payment reference and credits in one transaction, so each is redeemed once
 * however many processes race with the same credential.
 */
export class Topups {
  constructor(private readonly options: TopupsOptions) {}

  /** One fresh challenge per rail. */
  challenges(amountCents: number): Challenge[] {
    const { clock, realm, signer, challengeTtlSeconds } = this.options;
    const expires = new Date(clock.now() + challengeTtlSeconds * 1000)
      .toISOString()
      .replace(/\.\d{3}Z$/, "Z");
    return this.options.rails.map((rail) => {
      const fields = {
        realm,
        method: rail.method,
        intent: INTENT,
        request: encodeCanonical(rail.chargeRequest(amountCents)),
        expires,
        opaque: encodeCanonical({ nonce: randomBase62(22) }),
      };
      return {
        ...fields,
        id: signer.idFor(fields),
        description: `Sibyl credits: ${dollarText(amountCents)} top-up`,
      };
    });
  }

  /** The machine-readable offers of `x-payment-info`. */
  offers(): PaymentOffer[] {
    return this.options.rails.map((rail) => rail.offer(TOPUP_CENTS));
  }

  /**
   * Verifies the credential for a top-up of `amountCents` and credits it: to the organization
   * `refillOrganizationId`, or to a new one with a new key. Throws a PaymentProblem when the
   * payment is not proven (or was redeemed before), a 502 ServiceError when the rail's verifier
   * cannot be reached.
   */
  async redeem(
    authorization: string,
    amountCents: number,
    refillOrganizationId: string | null,
  ): Promise<TopupResult> {
    const credential = parseCredential(authorization);
    const challengeId = credential.challenge.id;
    try {
      const rail = this.checkedChallenge(credential, amountCents);
      if (await this.redeemed(CHALLENGE_SCOPE, challengeId)) throw alreadyRedeemed();
      const payment = await rail.verify(credential, {
        challengeId,
        realm: this.options.realm,
        amountCents,
      });
      return await this.credit(rail, payment, challengeId, amountCents, refillOrganizationId);
    } catch (error) {
      if (error instanceof PaymentProblem && error.challengeId === null) {
        throw new PaymentProblem(error.code, error.message, challengeId);
      }
      throw error;
    }
  }

  /** The challenge must be this server's, unaltered, unexpired, and for this very top-up. */
  private checkedChallenge(credential: Credential, amountCents: number): PaymentRail {
    const { challenge } = credential;
    const { signer, realm, clock } = this.options;
    if (!signer.matches(challenge.id, challenge)) {
      throw invalidChallenge("it was not issued by this server, or was altered");
    }
    const expiresAt = Date.parse(challenge.expires ?? "");
    if (Number.isNaN(expiresAt)) throw invalidChallenge("it has no valid 'expires'");
    if (expiresAt <= clock.now()) {
      throw new PaymentProblem(
        "payment-expired",
        `The challenge expired at ${challenge.expires}; request a fresh one.`,
      );
    }
    const rail = this.options.rails.find((candidate) => candidate.method === challenge.method);
    if (!rail || challenge.intent !== INTENT || challenge.realm !== realm) {
      throw invalidChallenge(
        `this server no longer offers ${challenge.method}/${challenge.intent}`,
      );
    }
    if (challenge.request !== encodeCanonical(rail.chargeRequest(amountCents))) {
      throw invalidChallenge(
        `it was issued for another top-up than this call's amount_cents (${amountCents}); retry with the amount_cents of the call that returned it`,
      );
    }
    return rail;
  }

  private async redeemed(scope: string, reference: string): Promise<boolean> {
    const row = await this.options.db.query
      .selectFrom("single_use_references")
      .select("reference")
      .where("scope", "=", scope)
      .where("reference", "=", reference)
      .executeTakeFirst();
    return row !== undefined;
  }

  private async credit(
    rail: PaymentRail,
    payment: VerifiedPayment,
    challengeId: string,
    amountCents: number,
    refillOrganizationId: string | null,
  ): Promise<TopupResult> {
    const { db, clock, ledger, accounts } = this.options;
    const now = unixSeconds(clock);
    const details: EntryDetails = {
      reference: `${rail.kind}:${payment.reference}`,
      memo: `MPP top-up via ${rail.method}, challenge ${challengeId}`,
    };
    const credits = centsToNanos(amountCents);
    const credited = await db.transaction(async (tx) => {
      if (!(await claimOnce(tx, CHALLENGE_SCOPE, challengeId, now))) throw alreadyRedeemed();
      if (!(await claimOnce(tx, `mpp-payment:${rail.kind}`, payment.reference, now))) {
        throw verificationFailed(`Payment ${payment.reference} has already been redeemed.`);
      }
      if (refillOrganizationId !== null) {
        await ledger.credit(refillOrganizationId, credits, "topup", details, tx);
        return { organizationId: refillOrganizationId, apiKey: null, apiKeyId: null };
      }
      const opened = await accounts.open(
        {
          name: `MPP payer (${rail.method})`,
          creditsNanos: credits,
          creditKind: "topup",
          creditDetails: details,
        },
        tx,
      );
      return {
        organizationId: opened.organization.id,
        apiKey: opened.key.api_key,
        apiKeyId: opened.key.api_key_id,
      };
    });
    return {
      ...credited,
      creditedCents: amountCents,
      receipt: paymentReceipt({
        method: rail.method,
        reference: payment.reference,
        timestampMs: clock.now(),
        challengeId,
      }),
    };
  }
}

function invalidChallenge(reason: string): PaymentProblem {
  return new PaymentProblem("invalid-challenge", `The challenge is invalid: ${reason}.`);
}

const alreadyRedeemed = () =>
  new PaymentProblem("invalid-challenge", "The challenge is invalid: it was already redeemed.");
