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

  private settle(
    rail: PaymentRail,
    payment: LandedPayment,
  ): Promise<"credited" | "unclaimed" | "already_credited"> {
    const { db, clock, ledger, accounts } = this.options;
    const now = unixSeconds(clock);
    const reference = `${rail.kind}:${payment.reference}`;
    const details: EntryDetails = {
      reference,
      memo: `MPP top-up via ${rail.method}, found by reconciliation`,
    };
    const credits = centsToNanos(payment.amountCents);
    return db
      .transaction(async (tx) => {
        const pending = await tx.query
          .selectFrom("pending_payments")
          .select(["challenge_id", "refill_organization_id"])
          .where("reference", "=", reference)
          .executeTakeFirst();
        // The organization refilled: named by a credential presented while the payment was not
        // final, else by the challenge's record from when it was issued.
        const refill =
          pending?.refill_organization_id != null &&
          rail.challengeTag(pending.challenge_id) === payment.tag
            ? {
                challenge_id: pending.challenge_id,
                organization_id: pending.refill_organization_id,
              }
            : await refillOf(tx, rail.kind, payment.tag);
        // Claimed in the order a redemption claims them (the challenge, then the payment), so
        // that on PostgreSQL the two never wait on each other.
        const refilled =
          refill !== null && (await claimOnce(tx, CHALLENGE_SCOPE, refill.challenge_id, now));
        if (!(await claimOnce(tx, `mpp-payment:${rail.kind}`, payment.reference, now))) {
          // Undoes the challenge's claim with the rest.
          if (refilled) throw new CreditedMeanwhile();
          return "already_credited";
        }
        await finishPending(tx, reference, now);
        if (refill && refilled) {
          await ledger.credit(refill.organization_id, credits, "topup", details, tx);
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
          return "credited";
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
        return "unclaimed";
      })
      .catch((error: unknown) => {
        if (error instanceof CreditedMeanwhile) return "already_credited" as const;
        throw error;
      });
  }
}

/** The payment was credited by a redemption while its refill's challenge was being claimed. */
class CreditedMeanwhile extends Error {}
