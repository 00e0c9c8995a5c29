import type { Services } from "../../src/services.js";

export interface LedgerTotals {
  /** Spendable balance (organizations.balance_nanos, with what open leases have not spent). */
  balance: number;
  /** Sum of the holds of work still open (leases are part of the balance). */
  held: number;
  /** Sum of every ledger entry's amount. */
  ledger: number;
}

/** The three numbers the credit invariant relates: balance + held == ledger. */
export async function ledgerTotals(services: Services, organizationId: string) {
  const db = services.database.db.query;
  const balance = await services.ledger.balance(organizationId);
  const held = await db
    .selectFrom("reservations")
    .select((eb) => eb.fn.sum<number | string | null>("amount_nanos").as("total"))
    .where("organization_id", "=", organizationId)
    .where("status", "=", "held")
    .where("kind", "=", "hold")
    .executeTakeFirstOrThrow();
  const ledger = await db
    .selectFrom("ledger_entries")
    .select((eb) => eb.fn.sum<number | string | null>("amount_nanos").as("total"))
    .where("organization_id", "=", organizationId)
    .executeTakeFirstOrThrow();
  return {
    balance,
    held: Number(held.total ?? 0),
    ledger: Number(ledger.total ?? 0),
  } satisfies LedgerTotals;
}
