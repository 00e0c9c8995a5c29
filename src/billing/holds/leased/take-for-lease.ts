import { sql } from "kysely";
import type { Db } from "../../../db/database.js";
import { organizationLock } from "../../organization-lock.js";

/*
 * The database side of credit leases (see CreditLeases): money moves between an organization's
 * balance and a lease row in `reservations` (kind 'lease'), whose `amount_nanos` is what the
 * lease took and `charged_nanos` what its requests were charged; the rest belongs to the lease's
 * process until it gives it back, or until a live process returns the lease of a dead one.
 */

export interface LeaseTake {
  leaseId: string;
  organizationId: string;
  /** A lease of this process that may still be open, to grow; null opens a new one. */
  openLeaseId: string | null;
  /** Nothing is taken unless the balance covers at least this. */
  minNanos: number;
  /** What the lease would like; cut to a quarter of the balance, never below `minNanos`. */
  wantNanos: number;
  owner: string;
  now: number;
}

/** The lease that received the money (the open one, or a new one), and how much it got. */
export interface LeaseGrant {
  leaseId: string;
  takenNanos: number;
}

/**
 * Moves money from the balance to a lease, or moves nothing (null) when the balance is below
 * `minNanos`. Leaving three quarters of the balance behind keeps money within reach of other
 * processes and of holds that do not lease.
 */
export async function takeForLease(tx: Db, take: LeaseTake): Promise<LeaseGrant | null> {
  // Locks in the order used everywhere: the reservation, then the organization. Charges
  // written meanwhile only share the organization's row (their entries' foreign keys).
  if (take.openLeaseId !== null && tx.dialect === "postgres") {
    await tx.rows(sql`select 1 from reservations where id = ${take.openLeaseId} for update`);
  }
  const [row] = await tx.rows<{ balance_nanos: number }>(sql`
    select balance_nanos from organizations where id = ${take.organizationId}${organizationLock(tx)}`);
  if (!row || row.balance_nanos < take.minNanos) return null;
  const taken = Math.max(
    take.minNanos,
    Math.min(take.wantNanos, Math.floor(row.balance_nanos / 4)),
  );
  await tx.changes(sql`
    update organizations set balance_nanos = balance_nanos - ${taken}
    where id = ${take.organizationId}`);
  if (take.openLeaseId !== null) {
    const grown = await tx.changes(sql`
      update reservations set amount_nanos = amount_nanos + ${taken}
      where id = ${take.openLeaseId} and status = 'held'`);
    if (grown > 0) return { leaseId: take.openLeaseId, takenNanos: taken };
  }
  await tx.changes(sql`
    insert into reservations
      (id, organization_id, amount_nanos, status, charged_nanos, reference, created_at,
       finished_at, owner, api_key_id, kind)
    values (${take.leaseId}, ${take.organizationId}, ${taken}, 'held', 0, null, ${take.now},
      null, ${take.owner}, null, 'lease')`);
  return { leaseId: take.leaseId, takenNanos: taken };
}
