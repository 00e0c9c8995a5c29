import type { Statements } from "../db/database.js";
import type { PlainStatement } from "../db/plain-statement.js";

const SPENDABLE = `
  select o.balance_nanos + coalesce((
    select sum(r.amount_nanos - coalesce(r.charged_nanos, 0)) from reservations r
    where r.organization_id = o.id and r.kind = 'lease' and r.status = 'held'
  ), 0) as spendable
  from organizations o where o.id = ?`;

/** What the organization may spend now: its balance plus what its open leases have not spent. */
export async function spendableNanos(
  db: Statements,
  organizationId: string,
): Promise<number | null> {
  const [row] = await db.rows<{ spendable: number }>(spendableStatement(organizationId));
  return row ? Number(row.spendable) : null;
}

/** The statement `spendableNanos` runs: one per group of charges. */
export function spendableStatement(organizationId: string): PlainStatement {
  return { sql: SPENDABLE, parameters: [organizationId] };
}
