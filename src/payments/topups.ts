import { sql } from "kysely";
import type { Accounts } from "../auth/accounts.js";
import type { ApiKeys } from "../auth/api-keys.js";
import type { EntryDetails, Ledger } from "../billing/ledger.js";
import type { Db } from "../db/database.js";
import { claimOnce } from "../db/single-use.js";
import { type Clock, unixSeconds } from "../util/clock.js";
import { randomBase62 } from "../util/ids.js";
import { rankOffers } from "./accept-payment.js";
import { centsToNanos, dollarText, TOPUP_CENTS } from "./amounts.js";
import type { Challenge, ChallengeSigner } from "./challenge.js";
import { type Credential, isRecord, parseCredential } from "./credential.js";
import type { CredentialThrottle } from "./credential-throttle.js";
import { decodeJson, encodeCanonical } from "./jcs.js";
import { finishPending, notePending, pendingFor } from "./pending-payments.js";
import { PaymentPending, PaymentProblem, verificationFailed } from "./problems.js";
import type { PaymentOffer, PaymentRail, VerifiedPayment } from "./rail.js";
import { paymentReceipt } from "./receipt.js";
import { CHALLENGE_SCOPE } from "./reconciliation.js";
import {
  credentialDigest,
  findRedemption,
  RECONCILED_CREDENTIAL,
  type Redemption,
  recordRedemption,
  refusalOfRecovery,
  reissueKey,
} from "./redemption-records.js";
import { recordRefillChallenges } from "./refill-challenges.js";

export interface TopupsOptions {
  db: Db;
  clock: Clock;
  ledger: Ledger;
  accounts: Accounts;
  apiKeys: ApiKeys;
  signer: ChallengeSigner;
  /** In the order their challenges are offered. */
  rails: PaymentRail[];
  /** The protection space of the challenges: the public host. */
  realm: string;
  challengeTtlSeconds: number;
  /** Bounds the credentials presented per client address and per challenge. */
  throttle: CredentialThrottle;
}

/** Who presents a credential, and under which `Idempotency-Key`. */
export interface Presentation {
  /** The client's address, as the rate limit per address counts it. */
  address: string;
  idempotencyKey: string | null;
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

/**
 * Machine-payment top-ups (HTTP `Payment` scheme, charge intent): challenges for an amount, and
 * the redemption of a paid credential into credits, for a new organization with a new key or an
 * existing one. Nothing is written until the payment is proven; the redemption then claims the
 * challenge and the payment reference and credits in one transaction, so each is redeemed once
 * however many processes race with the same credential.
 */
export class Topups {
  constructor(private readonly options: TopupsOptions) {}

  /** One fresh challenge per rail, those of the client's `Accept-Payment` first. */
  challenges(amountCents: number, acceptPayment?: string): Challenge[] {
    const { clock, realm, signer, challengeTtlSeconds } = this.options;
    const expires = new Date(clock.now() + challengeTtlSeconds * 1000)
      .toISOString()
      .replace(/\.\d{3}Z$/, "Z");
    const offered = this.options.rails.map((rail) => ({
      rail,
      method: rail.method,
      intent: INTENT,
    }));
    return rankOffers(offered, acceptPayment).map(({ rail }) => {
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
        description: describeTopup(amountCents),
      };
    });
  }

  /**
   * Fresh challenges refilling `organizationId`. Those a payment can be found by without its
   * credential (on chain) are remembered, so that reconciliation credits a refill whose
   * credential never arrived to the organization it refilled.
   */
  async refillChallenges(
    organizationId: string,
    amountCents: number,
    acceptPayment?: string,
  ): Promise<Challenge[]> {
    const issued = this.challenges(amountCents, acceptPayment);
    const issuedAt = unixSeconds(this.options.clock);
    await recordRefillChallenges(
      this.options.db,
      issued.flatMap((challenge) => {
        const rail = this.options.rails.find((candidate) => candidate.method === challenge.method);
        if (!rail?.scan) return [];
        return [
          {
            challenge_id: challenge.id,
            rail_kind: rail.kind,
            challenge_tag: rail.challengeTag(challenge.id),
            organization_id: organizationId,
            issued_at: issuedAt,
          },
        ];
      }),
    );
    return issued;
  }

  /** Every rail's network is the configured one; throws the 503 of the first that is not, or cannot be asked. */
  async checkNetworks(): Promise<void> {
    for (const rail of this.options.rails) await rail.checkNetwork?.();
  }

  /** The machine-readable offers of `x-payment-info`. */
  offers(): PaymentOffer[] {
    return this.options.rails.map((rail) => rail.offer(TOPUP_CENTS));
  }

  /**
   * Verifies the credential for a top-up of `amountCents` (null: the amount its challenge names,
   * as on a paid route's retry) and credits it: to the organization `refillOrganizationId`, or
   * to a new one with a new key. The same credential presented again within 24 hours (its answer
   * was lost) gives the same organization back. Throws a PaymentProblem when the payment is not
   * proven, a 503 ServiceError when the rail's verifier cannot be asked, a 429 when the
   * address or the challenge presented too many credentials this minute.
   */
  async redeem(
    authorization: string,
    requestedCents: number | null,
    refillOrganizationId: string | null,
    presentation: Presentation,
  ): Promise<TopupResult> {
    const { throttle } = this.options;
    const { idempotencyKey } = presentation;
    await throttle.admitAddress(presentation.address);
    const credential = parseCredential(authorization);
    const challengeId = credential.challenge.id;
    try {
      const amountCents = requestedCents ?? this.challengedCents(credential);
      const { rail, expired } = this.checkedChallenge(credential, amountCents);
      // Only a challenge of this server's, unaltered, is counted: forged ids cost nothing.
      await throttle.admitChallenge(challengeId);
      const earlier = await findRedemption(this.options.db, challengeId);
      if (earlier) return await this.recover(earlier, rail, credential, idempotencyKey);
      const unclaimed = await this.unclaimedFor(rail, credential);
      if (unclaimed) return await this.claim(unclaimed, rail, credential, idempotencyKey);
      const pending = await pendingFor(this.options.db, challengeId);
      if (expired && pending === null) {
        throw new PaymentProblem(
          "payment-expired",
          `The challenge expired at ${credential.challenge.expires}; request a fresh one.`,
        );
      }
      // A transaction already sent for this challenge is the payment: a client that signs a new
      // one for the same challenge must not pay twice, so the new one is never broadcast.
      const proof =
        pending?.startsWith("chain:") === true
          ? { ...credential, payload: { type: "hash", hash: pending.slice(6) }, source: null }
          : credential;
      const payment = await this.verified(rail, proof, amountCents, refillOrganizationId);
      return await this.credit(
        rail,
        payment,
        credential,
        amountCents,
        refillOrganizationId,
        idempotencyKey,
      );
    } catch (error) {
      if (error instanceof PaymentProblem && error.challengeId === null) {
        throw error.about(challengeId);
      }
      throw error;
    }
  }

  /**
   * The rail's proof; a payment sent but not yet final (a broadcast that timed out) is noted as
   * pending, so that it is credited once final, and the payer told to present the same credential.
   */
  private async verified(
    rail: PaymentRail,
    credential: Credential,
    amountCents: number,
    refillOrganizationId: string | null,
  ): Promise<VerifiedPayment> {
    const challengeId = credential.challenge.id;
    try {
      return await rail.verify(credential, { challengeId, realm: this.options.realm, amountCents });
    } catch (error) {
      if (!(error instanceof PaymentPending)) throw error;
      await notePending(this.options.db, {
        reference: `${rail.kind}:${error.reference}`,
        challenge_id: challengeId,
        refill_organization_id: refillOrganizationId,
        amount_cents: amountCents,
        created_at: unixSeconds(this.options.clock),
        finished_at: null,
      });
      throw new PaymentProblem(
        "verification-failed",
        `${error.message} Do not pay again: present the same credential again in a few seconds, and it is credited once the payment is final.`,
        challengeId,
        // As it was issued: a client recognises the challenge it paid and presents its credential.
        { retryChallenge: { ...credential.challenge, description: describeTopup(amountCents) } },
      );
    }
  }

  /** The credential was redeemed before: its payer gets the organization back, once more. */
  private async recover(
    earlier: Redemption,
    rail: PaymentRail,
    credential: Credential,
    idempotencyKey: string | null,
  ): Promise<TopupResult> {
    const { db, clock, apiKeys } = this.options;
    const now = unixSeconds(clock);
    // Reconciliation credited the refill without a credential: the one naming its payment is it.
    const reconciled =
      earlier.credential_hash === RECONCILED_CREDENTIAL &&
      // A card payment's tag is the whole challenge id: its challenge names it.
      (rail.kind === "card" ||
        earlier.reference === `${rail.kind}:${await rail.referenceOf(credential)}`);
    const refused = reconciled ? null : refusalOfRecovery(earlier, credential, idempotencyKey, now);
    if (refused) throw invalidChallenge(refused.reason, refused.retryAfterSeconds);
    let key: { api_key: string; api_key_id: string } | null = null;
    if (earlier.api_key_id !== null) {
      key = await reissueKey(db, apiKeys, earlier, now);
      if (!key) throw invalidChallenge("it was already redeemed, and its key has been used");
    }
    return {
      organizationId: earlier.organization_id,
      creditedCents: earlier.amount_cents,
      apiKey: key?.api_key ?? null,
      apiKeyId: key?.api_key_id ?? null,
      receipt: this.receipt(rail, earlier.reference.replace(/^[a-z]+:/, ""), earlier.challenge_id),
    };
  }

  /** A payment reconciliation credited to an organization of its own: the credential claims it. */
  private async unclaimedFor(rail: PaymentRail, credential: Credential) {
    const tag = rail.challengeTag(credential.challenge.id);
    const reference = await rail.referenceOf(credential);
    // A memo's nonce is short: on chain the transaction must match too. A card payment's tag is
    // the whole challenge id.
    if (reference === null && rail.kind === "chain") return null;
    let query = this.options.db.query
      .selectFrom("unclaimed_payments")
      .selectAll()
      .where("challenge_tag", "=", tag)
      .where("claimed_at", "is", null);
    if (reference !== null) query = query.where("reference", "=", `${rail.kind}:${reference}`);
    const row = await query.executeTakeFirst();
    return row ? { ...row, amount_cents: Number(row.amount_cents) } : null;
  }

  private async claim(
    unclaimed: { reference: string; organization_id: string; amount_cents: number },
    rail: PaymentRail,
    credential: Credential,
    idempotencyKey: string | null,
  ): Promise<TopupResult> {
    const { db, clock, apiKeys } = this.options;
    const now = unixSeconds(clock);
    const challengeId = credential.challenge.id;
    const key = await db.transaction(async (tx) => {
      const taken = await tx.changes(sql`
        update unclaimed_payments set claimed_at = ${now}
        where reference = ${unclaimed.reference} and claimed_at is null`);
      if (taken === 0 || !(await claimOnce(tx, CHALLENGE_SCOPE, challengeId, now))) {
        throw alreadyRedeemed();
      }
      const issued = await apiKeys.issue(unclaimed.organization_id, tx, { name: "MPP payer" });
      await recordRedemption(tx, {
        challenge_id: challengeId,
        reference: unclaimed.reference,
        organization_id: unclaimed.organization_id,
        amount_cents: Number(unclaimed.amount_cents),
        api_key_id: issued.api_key_id,
        credential_hash: credentialDigest(credential),
        idempotency_key: idempotencyKey,
        redeemed_at: now,
      });
      return issued;
    });
    return {
      organizationId: unclaimed.organization_id,
      creditedCents: Number(unclaimed.amount_cents),
      apiKey: key.api_key,
      apiKeyId: key.api_key_id,
      receipt: this.receipt(rail, unclaimed.reference.replace(/^[a-z]+:/, ""), challengeId),
    };
  }

  /** The top-up a credential's challenge asks for; only trusted once its id is checked. */
  private challengedCents(credential: Credential): number {
    const rail = this.railFor(credential);
    const request = decodeJson(credential.challenge.request);
    const cents = isRecord(request) ? rail.centsOf(request) : null;
    if (cents === null || cents < TOPUP_CENTS.min || cents > TOPUP_CENTS.max) {
      throw invalidChallenge("it names no top-up this server offers");
    }
    return cents;
  }

  private railFor(credential: Credential): PaymentRail {
    const { method } = credential.challenge;
    const rail = this.options.rails.find((candidate) => candidate.method === method);
    if (!rail) {
      const offered = this.options.rails.map((candidate) => candidate.method).join(", ");
      throw new PaymentProblem(
        "method-unsupported",
        `This server does not take the payment method '${method}'; it takes ${offered}.`,
      );
    }
    return rail;
  }

  /**
   * The challenge must be this server's, unaltered, and for this very top-up. Whether it
   * expired is for the caller to weigh: a payment made in time may be credited later.
   */
  private checkedChallenge(
    credential: Credential,
    amountCents: number,
  ): { rail: PaymentRail; expired: boolean } {
    const { challenge } = credential;
    const { signer, realm, clock } = this.options;
    const rail = this.railFor(credential);
    if (!signer.matches(challenge.id, challenge)) {
      throw invalidChallenge("it was not issued by this server, or was altered");
    }
    const expiresAt = Date.parse(challenge.expires ?? "");
    if (Number.isNaN(expiresAt)) throw invalidChallenge("it has no valid 'expires'");
    if (challenge.intent !== INTENT || challenge.realm !== realm) {
      throw invalidChallenge(
        `this server no longer offers ${challenge.method}/${challenge.intent}`,
      );
    }
    if (challenge.request !== encodeCanonical(rail.chargeRequest(amountCents))) {
      throw invalidChallenge(
        `it was issued for another top-up than this call's amount_cents (${amountCents}); retry with the amount_cents of the call that returned it`,
      );
    }
    return { rail, expired: expiresAt <= clock.now() };
  }

  private async credit(
    rail: PaymentRail,
    payment: VerifiedPayment,
    credential: Credential,
    amountCents: number,
    refillOrganizationId: string | null,
    idempotencyKey: string | null,
  ): Promise<TopupResult> {
    const { db, clock, ledger, accounts } = this.options;
    const challengeId = credential.challenge.id;
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
      await finishPending(tx, details.reference ?? "", now);
      let credited: Omit<TopupResult, "creditedCents" | "receipt">;
      if (refillOrganizationId !== null) {
        await ledger.credit(refillOrganizationId, credits, "topup", details, tx);
        credited = { organizationId: refillOrganizationId, apiKey: null, apiKeyId: null };
      } else {
        const opened = await accounts.open(
          {
            name: `MPP payer (${rail.method})`,
            creditsNanos: credits,
            creditKind: "topup",
            creditDetails: details,
          },
          tx,
        );
        credited = {
          organizationId: opened.organization.id,
          apiKey: opened.key.api_key,
          apiKeyId: opened.key.api_key_id,
        };
      }
      await recordRedemption(tx, {
        challenge_id: challengeId,
        reference: details.reference ?? "",
        organization_id: credited.organizationId,
        amount_cents: amountCents,
        api_key_id: credited.apiKeyId,
        credential_hash: credentialDigest(credential),
        idempotency_key: idempotencyKey,
        redeemed_at: now,
      });
      return credited;
    });
    return {
      ...credited,
      creditedCents: amountCents,
      receipt: this.receipt(rail, payment.reference, challengeId),
    };
  }

  private receipt(rail: PaymentRail, reference: string, challengeId: string): string {
    return paymentReceipt({
      method: rail.method,
      reference,
      timestampMs: this.options.clock.now(),
      challengeId,
    });
  }
}

function describeTopup(amountCents: number): string {
  return `Sibyl credits: ${dollarText(amountCents)} top-up`;
}

function invalidChallenge(reason: string, retryAfterSeconds?: number): PaymentProblem {
  return new PaymentProblem(
    "invalid-challenge",
    `The challenge is invalid: ${reason}.`,
    null,
    retryAfterSeconds === undefined ? {} : { retryAfterSeconds },
  );
}

const alreadyRedeemed = () =>
  new PaymentProblem("invalid-challenge", "The challenge is invalid: it was already redeemed.");
