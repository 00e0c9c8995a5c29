import { expect } from "vitest";
import { ledgerTotals } from "../../support/ledger-totals.js";
import { chargeEntries, keySpent, type LedgerModel, type LedgerSystem } from "./ledger-model.js";

/**
 * Checked after every command: the model and the database agree, the money adds up (spendable
 * balance + open stored holds = the sum of the ledger), the key stays within its limit, and
 * nothing was charged twice.
 */
export async function expectConsistent(model: LedgerModel, system: LedgerSystem): Promise<void> {
  const totals = await ledgerTotals(system.a, system.organizationId);
  expect(totals.balance).toBe(model.balance);
  expect(totals.balance).toBeGreaterThanOrEqual(0);
  const storedHeld = model.holds
    .filter((held) => held.open && !held.leased)
    .reduce((sum, held) => sum + held.amount, 0);
  expect(totals.held).toBe(storedHeld);
  expect(totals.balance + totals.held).toBe(totals.ledger);

  const spent = await keySpent(system);
  expect(spent).toBe(model.keySpent);
  // Only a limit lowered below what the key had spent leaves it above: it then only comes down.
  expect(spent).toBeLessThanOrEqual(model.keyCeiling);
  model.keyCeiling = Math.max(model.keyLimit, spent);

  await expectChargedOnce(model, system);
}

/**
 * Each reference's charges add up to what its one settlement charged, with one entry per part
 * at most: a settlement repeated, or replayed after its process died, charged nothing more.
 */
async function expectChargedOnce(model: LedgerModel, system: LedgerSystem): Promise<void> {
  const byReference = new Map<string | null, number>();
  const parts = new Set<string>();
  for (const entry of await chargeEntries(system)) {
    byReference.set(entry.reference, (byReference.get(entry.reference) ?? 0) + entry.amount);
    const part = `${entry.reference} ${entry.memo}`;
    expect(parts.has(part), `${part} charged twice`).toBe(false);
    parts.add(part);
  }
  const expected = new Map([...model.charged].filter(([, nanos]) => nanos > 0));
  expect(byReference).toEqual(expected);
}
