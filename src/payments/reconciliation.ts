import { sql } from "kysely";
import type { Accounts } from "../auth/accounts.js";
import type { EntryDetails, Ledger } from "../billing/ledger.js";
import type { Db } from "../db/database.js";
import { claimOnce } from "../db/single-use.js";
import { type Clock, unixSeconds } from "../util/clock.js";
import { centsToNanos } from "./amounts.js";
import { finishPending, openPending } from "./pending-payments.js";
import type { LandedPayment, PaymentRail, PaymentScan } from "./rail.js";
import { RECONCILED_CREDENTIAL, recordRedemption } from "./redemption-records.js";
import { forgetRefillChallenges, REFILL_MEMORY_SECONDS, refillOf } from "./refill-challenges.js";

/** The single-use scope of challenge ids, shared with the redemption of credentials. */
export const CHALLENGE_SCOPE = "mpp-challenge";

/** How far back a first scan (no cursor yet, no `since`) looks. */
const FIRST_LOOK_BACK_MS = 7 * 24 * 3600 * 1000;

/** Pending payments asked about per reconciliation, oldest first. */
const PENDING_PER_RECONCILIATION = 500;

export interface ReconciliationOptions {
  db: Db;
  clock: Clock;
  ledger: Ledger;
  accounts: Accounts;
  rails: PaymentRail[];
  realm: string;
}

export interface ReconcileReport {
  /** Blocks read, per scope. */
  scanned: { scope: string; from_block: number; to_block: number }[];
  /** Payments credited to the organization their challenge refilled. */
  credited: number;
  /** Payments credited to an organization of their own, claimed by presenting the credential. */
  unclaimed: number;
  /** Payments found that a credential had already credited. */
  already_credited: number;
}

/**
 * Finds the payments that landed for this server and were never credited (mined after their
 * challenge expired, a broadcast whose answer was lost, a crash between proof and credit) and
 * credits them: to the organization the challenge refilled (named when the challenge was issued,
 * or by a credential presented while the payment was not final), else
 * to a new organization whose key the payer claims by presenting the credential. Card payments
 * left `processing` are asked about again until final. Each payment
 * is credited once however reconciliation and redemption race: both claim its reference.
 */
export class Reconciliation {
  constructor(private readonly options: ReconciliationOptions) {}

  /** Scans from `sinceMs` when given, else from where the last scan stopped. */
  async reconcile(sinceMs?: number): Promise<ReconcileReport> {
    const report: ReconcileReport = { scanned: [], credited: 0, unclaimed: 0, already_credited: 0 };
    const { db, clock } = this.options;
    await forgetRefillChallenges(db, unixSeconds(clock) - REFILL_MEMORY_SECONDS);
    for (const rail of this.options.rails) {
      await this.pollPending(rail, report);
      if (!rail.scan) continue;
      // Nothing a node of another chain says is credited.
      await rail.checkNetwork?.();
      await this.reconcileRail(rail, rail.scan, sinceMs, report);
    }
    return report;
  }

  /** Asks again about the payments left pending (card PaymentIntents left `processing`). */
  private async pollPending(rail: PaymentRail, report: ReconcileReport): Promise<void> {
    if (!rail.settledCents) return;
    const prefix = `${rail.kind}:`;
    const pending = await openPending(this.options.db, PENDING_PER_RECONCILIATION);
    for (const payment of pending.filter((row) => row.reference.startsWith(prefix))) {
      const reference = payment.reference.slice(prefix.length);
      const cents = await rail.settledCents(reference);
      if (cents === null) continue;
      if (cents === 0) {
        await finishPending(this.options.db, payment.reference, unixSeconds(this.options.clock));
        continue;
      }
      const tag = rail.challengeTag(payment.challenge_id);
      report[await this.settle(rail, { reference, tag, amountCents: cents })] += 1;
    }
  }

  private async reconcileRail(
    rail: PaymentRail,
    scan: PaymentScan,
    sinceMs: number | undefined,
    report: ReconcileReport,
  ): Promise<void> {
    const { db, clock, realm } = this.options;
    const head = await scan.head();
    const cursor = await db.query
      .selectFrom("chain_scan_cursors")
      .select("next_block")
      .where("scope", "=", scan.scope)
      .executeTakeFirst();
    const from =
      sinceMs !== undefined
        ? await scan.blockAt(sinceMs)
        : cursor
          ? Number(cursor.next_block)
          : await scan.blockAt(clock.now() - FIRST_LOOK_BACK_MS);
    if (from > head) return;
    for (const payment of await scan.landed(from, head, realm)) {
      report[await this.settle(rail, payment)] += 1;
    }
    report.scanned.push({ scope: scan.scope, from_block: from, to_block: head });
    // Never backwards: a scan `since` an earlier date leaves later blocks to the cursor.
    await db.changes(sql`
      insert into chain_scan_cursors (scope, next_block) values (${scan.scope}, ${head + 1})
      on conflict (scope) do update set next_block = excluded.next_block
      where chain_scan_cursors.next_block < excluded.next_block`);
  }

  /** Credits one landed payment once, to the organization it refilled or to one of its own. */
  private settle(rail: PaymentRail, payment: LandedPayment): Promise<Outcome> {
    const found: FoundPayment = {
      rail,
      payment,
      reference: `${rail.kind}:${payment.reference}`,
      now: unixSeconds(this.options.clock),
    };
    return this.options.db
      .transaction(async (tx) => {
        const refill = await refillFor(tx, found);
        // Claimed in the order a redemption claims them (the challenge, then the payment), so
        // that on PostgreSQL the two never wait on each other.
        const refilled =
          refill !== null && (await claimOnce(tx, CHALLENGE_SCOPE, refill.challenge_id, found.now));
        if (!(await claimOnce(tx, `mpp-payment:${rail.kind}`, payment.reference, found.now))) {
          // Undoes the challenge's claim with the rest.
          if (refilled) throw new CreditedMeanwhile();
          return "already_credited";
        }
        await finishPending(tx, found.reference, found.now);
        if (refill && refilled) {
          await this.creditRefill(tx, found, refill);
          return "credited";
        }
        await this.creditUnclaimed(tx, found);
        return "unclaimed";
      })
      .catch((error: unknown) => {
        if (error instanceof CreditedMeanwhile) return "already_credited" as const;
        throw error;
      });
  }

  /** Credits the organization the payment's challenge refilled, as a redemption would. */
  private async creditRefill(tx: Db, found: FoundPayment, refill: Refill): Promise<void> {
    const { reference, payment, now } = found;
    const credits = centsToNanos(payment.amountCents);
    await this.options.ledger.credit(
      refill.organization_id,
      credits,
      "topup",
      creditDetails(found),
      tx,
    );
    await recordRedemption(tx, {
      challenge_id: refill.challenge_id,
      reference,
      organization_id: refill.organization_id,
      amount_cents: payment.amountCents,
      api_key_id: null,
      credential_hash: RECONCILED_CREDENTIAL,
      idempotency_key: null,
      redeemed_at: now,
    });
  }

  /** Credits a new organization that the payer claims by presenting the credential. */
  private async creditUnclaimed(tx: Db, found: FoundPayment): Promise<void> {
    const { rail, payment, reference, now } = found;
    const opened = await this.options.accounts.open(
      {
        name: `MPP payer (${rail.method})`,
        creditsNanos: centsToNanos(payment.amountCents),
        creditKind: "topup",
        creditDetails: creditDetails(found),
      },
      tx,
    );
    // Nobody sees this key: the payer gets a key of its own by presenting the credential.
    await tx.changes(
      sql`update api_keys set revoked_at = ${now} where id = ${opened.key.api_key_id}`,
    );
    await tx.query
      .insertInto("unclaimed_payments")
      .values({
        reference,
        challenge_tag: payment.tag,
        organization_id: opened.organization.id,
        amount_cents: payment.amountCents,
        found_at: now,
        claimed_at: null,
      })
      .execute();
  }
}

type Outcome = "credited" | "unclaimed" | "already_credited";

interface Refill {
  challenge_id: string;
  organization_id: string;
}

/** A landed payment being credited: its rail, and its reference in the ledger. */
interface FoundPayment {
  rail: PaymentRail;
  payment: LandedPayment;
  reference: string;
  now: number;
}

function creditDetails(found: FoundPayment): EntryDetails {
  return {
    reference: found.reference,
    memo: `MPP top-up via ${found.rail.method}, found by reconciliation`,
  };
}

/**
 * The organization the payment refilled: named by a credential presented while the payment was
 * not final, else by the challenge's record from when it was issued; null for neither.
 */
async function refillFor(tx: Db, found: FoundPayment): Promise<Refill | null> {
  const { rail, payment, reference } = found;
  const pending = await tx.query
    .selectFrom("pending_payments")
    .select(["challenge_id", "refill_organization_id"])
    .where("reference", "=", reference)
    .executeTakeFirst();
  if (
    pending?.refill_organization_id != null &&
    rail.challengeTag(pending.challenge_id) === payment.tag
  ) {
    return { challenge_id: pending.challenge_id, organization_id: pending.refill_organization_id };
  }
  return refillOf(tx, rail.kind, payment.tag);
}

/** The payment was credited by a redemption while its refill's challenge was being claimed. */
class CreditedMeanwhile extends Error {}
