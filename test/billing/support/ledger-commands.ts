import type fc from "fast-check";
import { expect } from "vitest";
import { type ChargeItem, HoldNotOpen, type Settlement } from "../../../src/billing/ledger.js";
import {
  costParts,
  giveBack,
  isRefusal,
  type LedgerModel,
  type LedgerSystem,
  leaseMoney,
  type ModelHold,
  type Process,
  processOf,
  reachable,
  refusalOf,
} from "./ledger-model.js";

export type LedgerCommand = fc.AsyncCommand<LedgerModel, LedgerSystem>;

/** Which hold a command takes: the `index`th open one its process can reach, or of any. */
export interface Pick {
  index: number;
  any: boolean;
}

/** Credits added: by an admin, or paid (the payment rails credit inside their own transaction). */
export class TopUp implements LedgerCommand {
  constructor(
    readonly nanos: number,
    readonly paid: boolean,
  ) {}
  check = () => true;
  async run(model: LedgerModel, system: LedgerSystem): Promise<void> {
    const { ledger, database } = system.a;
    if (this.paid) {
      const details = { reference: `tempo:0x${model.requests}`, memo: "MPP top-up" };
      await database.db.transaction((tx) =>
        ledger.credit(system.organizationId, this.nanos, "topup", details, tx),
      );
    } else {
      await ledger.credit(system.organizationId, this.nanos, "adjustment");
    }
    model.requests += 1;
    model.balance += this.nanos;
  }
  toString = () => `TopUp(${this.nanos}, paid ${this.paid})`;
}

/** A request's hold, from the process's lease when it can fund one. */
export class HoldRequest implements LedgerCommand {
  constructor(
    readonly process: Process,
    readonly nanos: number,
  ) {}
  check = (model: Readonly<LedgerModel>) => this.process === "A" || model.b === "alive";
  async run(model: LedgerModel, system: LedgerSystem): Promise<void> {
    const ledger = processOf(system, this.process).ledger;
    const reference = `req-${model.requests++}`;
    const held = await refusalOf(() =>
      ledger.holdForRequest(system.organizationId, this.nanos, reference),
    );
    if (isRefusal(held)) {
      expect(held.refused).toBe("insufficient_credits");
      // Only money other processes' leases took may make a hold fail that the balance covers.
      expect(this.nanos).toBeGreaterThan(model.balance - (await leaseMoney(system)));
      return;
    }
    const leased = held.leaseId !== undefined;
    if (!leased) model.balance -= this.nanos;
    model.holds.push({
      reservation: held,
      amount: this.nanos,
      process: this.process,
      life: this.process === "A" ? 0 : model.bLife,
      leased,
      keyed: false,
      once: null,
      reference,
      open: true,
    });
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
  /** A line runs one attempt at a time: the next once the last one's hold is closed. */
  check = (model: Readonly<LedgerModel>) =>
    (this.process === "A" || model.b === "alive") &&
    !model.holds.some((held) => held.open && held.once === lineReference(this.line));
  async run(model: LedgerModel, system: LedgerSystem): Promise<void> {
    const ledger = processOf(system, this.process).ledger;
    const once = lineReference(this.line);
    const reference = once ?? `req-${model.requests++}`;
    const key = this.keyed ? system.keyId : null;
    const held = await refusalOf(() =>
      ledger.reserve(system.organizationId, this.nanos, reference, undefined, key),
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
    model.holds.push({
      reservation: held,
      amount: this.nanos,
      process: this.process,
      life: this.process === "A" ? 0 : model.bLife,
      leased: false,
      keyed: this.keyed,
      once,
      reference,
      open: true,
    });
  }
  toString = () => `Reserve(${this.process}, ${this.nanos}, key ${this.keyed}, line ${this.line})`;
}

/**
 * Settles a hold at `factor` times its amount, in one part or two; a settled or returned hold
 * charges nothing. A batch line's hold settles as the line runner settles it: in the
 * transaction that records the line's result, charged once at most.
 */
export class Settle implements LedgerCommand {
  constructor(
    readonly pick: Pick,
    readonly factor: number,
    readonly split: boolean,
  ) {}
  check = (model: Readonly<LedgerModel>) => model.holds.length > 0;
  async run(model: LedgerModel, system: LedgerSystem): Promise<void> {
    const held = pickHold(model, this.pick);
    if (!held) return;
    const actual = Math.floor(held.amount * this.factor);
    const items = costParts(actual, this.split);
    if (held.once !== null) {
      await settleLine(model, system, held, held.once, items);
      return;
    }
    const expected = await expectedCharge(model, system, held, actual);
    const ledger = processOf(system, held.process).ledger;
    const settlement = await ledger.settle(held.reservation, actual, {
      reference: held.reference,
      items,
    });
    expect(settlement.chargedNanos).toBe(expected);
    applyCharge(model, held, settlement.chargedNanos);
  }
  toString = () =>
    `Settle(#${this.pick.index}${this.pick.any ? " any" : ""}, ×${this.factor}, split ${this.split})`;
}

/**
 * A line's settlement, and when it finds the hold closed or the line charged before, what the
 * line runner then does: it ends the attempt and returns the line's hold by its reference, as
 * long as the attempt still owns the line (its own hold is still open).
 */
async function settleLine(
  model: LedgerModel,
  system: LedgerSystem,
  held: ModelHold,
  line: string,
  items: ChargeItem[],
): Promise<void> {
  const { ledger, database } = processOf(system, held.process);
  const actual = items.reduce((sum, item) => sum + item.amountNanos, 0);
  const refused = !held.open || model.chargedOnce.has(line);
  const expected = refused ? 0 : await expectedCharge(model, system, held, actual);
  const details = { reference: line, once: true, whileHeld: true, items };
  const outcome = await database.db
    .transaction((tx) => ledger.settle(held.reservation, actual, details, tx))
    .catch((error: unknown) => error);
  if (!refused) {
    expect((outcome as Settlement).chargedNanos).toBe(expected);
    applyCharge(model, held, expected);
    return;
  }
  expect(outcome).toBeInstanceOf(HoldNotOpen);
  if (!held.open) return;
  await database.db.transaction((tx) =>
    ledger.releaseByReference(system.organizationId, [line], tx),
  );
  giveBack(model, held);
}

/** Returns a hold; a batch line's by its reference, as an attempt that ends uncharged does. */
export class Release implements LedgerCommand {
  constructor(readonly pick: Pick) {}
  check = (model: Readonly<LedgerModel>) => model.holds.length > 0;
  async run(model: LedgerModel, system: LedgerSystem): Promise<void> {
    const held = pickHold(model, this.pick);
    if (!held) return;
    const { ledger, database } = processOf(system, held.process);
    if (held.once !== null && held.open) {
      const line = held.once;
      const released = await database.db.transaction((tx) =>
        ledger.releaseByReference(system.organizationId, [line], tx),
      );
      expect(released).toBe(1);
    } else {
      await ledger.release(held.reservation);
    }
    giveBack(model, held);
  }
  toString = () => `Release(#${this.pick.index}${this.pick.any ? " any" : ""})`;
}

export class SetKeyLimit implements LedgerCommand {
  constructor(readonly nanos: number) {}
  check = () => true;
  async run(model: LedgerModel, system: LedgerSystem): Promise<void> {
    await system.a.organizationKeys.update(system.organizationId, system.keyId, {
      spendLimitNanos: this.nanos,
    });
    model.keyLimit = this.nanos;
    model.keyCeiling = Math.max(this.nanos, model.keySpent);
  }
  toString = () => `SetKeyLimit(${this.nanos})`;
}

function lineReference(line: number | null): string | null {
  return line === null ? null : `batch_model:line-${line}`;
}

/** The picked hold, if its process can reach it to settle or release it. */
function pickHold(model: LedgerModel, pick: Pick): ModelHold | undefined {
  const choice = pick.any ? model.holds : model.holds.filter((held) => held.open);
  const held = choice[pick.index % choice.length];
  return held && reachable(model, held) ? held : undefined;
}

/**
 * What settling `held` at `actual` charges: nothing once it is closed, or for a line charged
 * before; else the cost cut to the key's room, then to what the hold reaches with the money no
 * other hold or lease has: a stored hold's overrun comes from the balance row, a leased hold's
 * from its own lease's free money and then the balance row. A process taken for dead had its
 * lease returned under its leased holds: their whole cost comes from the balance row.
 */
async function expectedCharge(
  model: LedgerModel,
  system: LedgerSystem,
  held: ModelHold,
  actual: number,
): Promise<number> {
  if (!held.open) return 0;
  if (held.once && model.chargedOnce.has(held.once)) return 0;
  if (held.leased && held.process === "B" && model.b === "cut off") {
    return Math.min(actual, model.balance - (await leaseMoney(system)));
  }
  if (held.leased) {
    const otherLeased = model.holds
      .filter((other) => other !== held && other.open && other.leased)
      .filter((other) => other.process === held.process && other.life === held.life)
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
  if (held.once) model.chargedOnce.add(held.once);
  model.charged.set(held.reference, (model.charged.get(held.reference) ?? 0) + charged);
  if (held.leased) {
    model.balance -= charged;
    return;
  }
  model.balance += held.amount - charged;
  if (held.keyed) model.keySpent += charged - held.amount;
}
