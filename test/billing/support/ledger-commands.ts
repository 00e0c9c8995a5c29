import type fc from "fast-check";
import { expect } from "vitest";
import {
  isRefusal,
  keySpent,
  type LedgerModel,
  type LedgerSystem,
  leaseMoney,
  type ModelHold,
  type Process,
  processOf,
  refusalOf,
} from "./ledger-model.js";

type LedgerCommand = fc.AsyncCommand<LedgerModel, LedgerSystem>;

export class TopUp implements LedgerCommand {
  constructor(readonly nanos: number) {}
  check = () => true;
  async run(model: LedgerModel, system: LedgerSystem): Promise<void> {
    await system.a.ledger.credit(system.organizationId, this.nanos, "topup");
    model.balance += this.nanos;
  }
  toString = () => `TopUp(${this.nanos})`;
}

/** A request's hold, from the process's lease when it can fund one. */
export class HoldRequest implements LedgerCommand {
  constructor(
    readonly process: Process,
    readonly nanos: number,
  ) {}
  check = (model: Readonly<LedgerModel>) => this.process === "A" || !model.bDead;
  async run(model: LedgerModel, system: LedgerSystem): Promise<void> {
    const ledger = processOf(system, this.process).ledger;
    const held = await refusalOf(() =>
      ledger.holdForRequest(system.organizationId, this.nanos, null),
    );
    if (isRefusal(held)) {
      expect(held.refused).toBe("insufficient_credits");
      // Only money other processes' leases took may make a hold fail that the balance covers.
      expect(this.nanos).toBeGreaterThan(model.balance - (await leaseMoney(system)));
      return;
    }
    const leased = held.leaseId !== undefined;
    if (!leased) model.balance -= this.nanos;
    model.holds.push(hold(held, this.nanos, this.process, { leased, keyed: false, once: null }));
  }
  toString = () => `HoldRequest(${this.process}, ${this.nanos})`;
}

/** A stored hold: a batch line's (single-use reference) or a limited key's request. */
export class Reserve implements LedgerCommand {
  constructor(
    readonly process: Process,
    readonly nanos: number,
    readonly keyed: boolean,
    readonly line: number | null,
  ) {}
  check = (model: Readonly<LedgerModel>) => this.process === "A" || !model.bDead;
  async run(model: LedgerModel, system: LedgerSystem): Promise<void> {
    const ledger = processOf(system, this.process).ledger;
    const once = this.line === null ? null : `batch_model:line-${this.line}`;
    const key = this.keyed ? system.keyId : null;
    const held = await refusalOf(() =>
      ledger.reserve(system.organizationId, this.nanos, once, undefined, key),
    );
    if (isRefusal(held)) {
      const overKey = this.keyed && model.keySpent + this.nanos > model.keyLimit;
      const overBalance = this.nanos > model.balance - (await leaseMoney(system));
      expect(overKey || overBalance, `refused ${held.refused}`).toBe(true);
      if (held.refused === "key_spend_limit_reached") expect(overKey).toBe(true);
      return;
    }
    model.balance -= this.nanos;
    if (this.keyed) model.keySpent += this.nanos;
    model.holds.push(
      hold(held, this.nanos, this.process, { leased: false, keyed: this.keyed, once }),
    );
  }
  toString = () => `Reserve(${this.process}, ${this.nanos}, key ${this.keyed}, line ${this.line})`;
}

/** Settles a hold at `factor` times its amount; a settled or returned hold charges nothing. */
export class Settle implements LedgerCommand {
  constructor(
    readonly pick: number,
    readonly factor: number,
  ) {}
  check = (model: Readonly<LedgerModel>) => model.holds.length > 0;
  async run(model: LedgerModel, system: LedgerSystem): Promise<void> {
    const held = pickHold(model, this.pick);
    // A zombie's leased hold: its lease was returned by the sweep; see ZombieSettle.
    if (held.process === "B" && model.bDead && held.leased) return;
    const actual = Math.floor(held.amount * this.factor);
    const expected = await expectedCharge(model, system, held, actual);
    const ledger = processOf(system, held.process).ledger;
    const details = held.once ? { reference: held.once, once: true } : {};
    const settlement = await ledger.settle(held.reservation, actual, details);
    expect(settlement.chargedNanos).toBe(expected);
    applyCharge(model, held, settlement.chargedNanos);
  }
  toString = () => `Settle(#${this.pick}, ×${this.factor})`;
}

export class Release implements LedgerCommand {
  constructor(readonly pick: number) {}
  check = (model: Readonly<LedgerModel>) => model.holds.length > 0;
  async run(model: LedgerModel, system: LedgerSystem): Promise<void> {
    const held = pickHold(model, this.pick);
    if (held.process === "B" && model.bDead && held.leased) return;
    await processOf(system, held.process).ledger.release(held.reservation);
    if (!held.open) return;
    held.open = false;
    if (held.leased) return;
    model.balance += held.amount;
    if (held.keyed) model.keySpent -= held.amount;
  }
  toString = () => `Release(#${this.pick})`;
}

export class SetKeyLimit implements LedgerCommand {
  constructor(readonly nanos: number) {}
  check = () => true;
  async run(model: LedgerModel, system: LedgerSystem): Promise<void> {
    await system.a.organizationKeys.update(system.organizationId, system.keyId, {
      spendLimitNanos: this.nanos,
    });
    model.keyLimit = this.nanos;
  }
  toString = () => `SetKeyLimit(${this.nanos})`;
}

/**
 * Process B stops beating: once its lease has run out, A's sweep returns B's stored holds and
 * leases. B's in-memory holds are gone with it; B itself may still come back (see Settle).
 */
export class BDies implements LedgerCommand {
  check = (model: Readonly<LedgerModel>) => !model.bDead;
  async run(model: LedgerModel, system: LedgerSystem): Promise<void> {
    system.clock.advanceSeconds(system.leaseSeconds + 1);
    await system.a.holds.sweep();
    model.bDead = true;
    for (const held of model.holds) {
      if (held.process !== "B" || !held.open) continue;
      held.open = false;
      if (held.leased) continue;
      model.balance += held.amount;
      if (held.keyed) model.keySpent -= held.amount;
    }
  }
  toString = () => "BDies";
}

/** Checked after every command: the model and the database agree, and the ledger adds up. */
export async function expectConsistent(model: LedgerModel, system: LedgerSystem): Promise<void> {
  const ledger = system.a.ledger;
  const organizationId = system.organizationId;
  const balance = await ledger.balance(organizationId);
  expect(balance).toBe(model.balance);
  expect(balance).toBeGreaterThanOrEqual(0);
  const storedHeld = model.holds
    .filter((held) => held.open && !held.leased)
    .reduce((sum, held) => sum + held.amount, 0);
  const entries = await ledger.entries(organizationId);
  const total = entries.reduce((sum, entry) => sum + entry.amount_nanos, 0);
  expect(balance + storedHeld).toBe(total);
  expect(await keySpent(system)).toBe(model.keySpent);
  const onceCharges = entries
    .filter((entry) => entry.kind === "charge" && entry.reference?.startsWith("batch_model:"))
    .map((entry) => entry.reference);
  expect(new Set(onceCharges).size).toBe(onceCharges.length);
}

function hold(
  reservation: ModelHold["reservation"],
  amount: number,
  process: Process,
  kind: Pick<ModelHold, "leased" | "keyed" | "once">,
): ModelHold {
  return { reservation, amount, process, open: true, ...kind };
}

function pickHold(model: LedgerModel, pick: number): ModelHold {
  return model.holds[pick % model.holds.length] as ModelHold;
}

/**
 * What settling `held` at `actual` charges: nothing once it is closed, or for a line charged
 * before; else the cost cut to the key's room, then to what the hold reaches with the money no
 * other hold or lease has: a stored hold's overrun comes from the balance row, a leased hold's
 * from its own lease's free money and then the balance row.
 */
async function expectedCharge(
  model: LedgerModel,
  system: LedgerSystem,
  held: ModelHold,
  actual: number,
): Promise<number> {
  if (!held.open) return 0;
  if (held.once && model.chargedOnce.has(held.once)) return 0;
  if (held.leased) {
    const otherLeased = model.holds
      .filter((other) => other !== held && other.open && other.leased)
      .filter((other) => other.process === held.process)
      .reduce((sum, other) => sum + other.amount, 0);
    const otherLeases = await leaseMoney(system, held.process);
    return Math.min(actual, model.balance - otherLeases - otherLeased);
  }
  let cost = actual;
  if (held.keyed) cost = Math.min(cost, Math.max(0, model.keyLimit - model.keySpent + held.amount));
  return Math.min(cost, model.balance - (await leaseMoney(system)) + held.amount);
}

function applyCharge(model: LedgerModel, held: ModelHold, charged: number): void {
  if (!held.open) return;
  held.open = false;
  if (held.once && model.chargedOnce.has(held.once)) {
    model.balance += held.amount;
    if (held.keyed) model.keySpent -= held.amount;
    return;
  }
  if (held.once) model.chargedOnce.add(held.once);
  if (held.leased) {
    model.balance -= charged;
    return;
  }
  model.balance += held.amount - charged;
  if (held.keyed) model.keySpent += charged - held.amount;
}
