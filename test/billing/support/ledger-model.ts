import { sql } from "kysely";
import type { ChargeItem, Reservation } from "../../../src/billing/ledger.js";
import { ServiceError } from "../../../src/errors.js";
import type { Services } from "../../../src/services.js";
import type { DatabaseUnderTest } from "../../support/databases.js";
import type { ManualClock } from "../../support/manual-clock.js";

/** What the ledger should hold for one organization, kept by the model as commands run. */
export interface LedgerModel {
  /** Spendable balance: what `Ledger.balance` reports. */
  balance: number;
  keyLimit: number;
  /** The limited key's settled charges plus its open stored holds. */
  keySpent: number;
  /** What the key's spend may reach: its limit, or its spend when the limit was lowered below it. */
  keyCeiling: number;
  holds: ModelHold[];
  /** What the charges under each hold's reference add up to. */
  charged: Map<string, number>;
  /** Single-use references (batch lines) whose one charge was made. */
  chargedOnce: Set<string>;
  /**
   * Process B: running and beating; cut off (taken for dead by the sweep, yet still running);
   * or crashed (gone with what it held in memory).
   */
  b: "alive" | "cut off" | "crashed";
  /** Which start of process B runs now: each restart is a new process. */
  bLife: number;
  /** Numbers the references of requests, which are unique. */
  requests: number;
}

export type Process = "A" | "B";

export interface ModelHold {
  reservation: Reservation;
  amount: number;
  process: Process;
  /** The start of B that took it (0 for A's holds). */
  life: number;
  /** Held from a process's in-memory lease (the amount stays in the spendable balance). */
  leased: boolean;
  /** Held against the limited key's spend. */
  keyed: boolean;
  /** A batch line's single-use reference, or null. */
  once: string | null;
  /** The reference its charge entries carry. */
  reference: string;
  open: boolean;
}

/** The system under test: one organization with a limited key, seen by two processes. */
export interface LedgerSystem {
  database: DatabaseUnderTest;
  a: Services;
  /** The running start of process B (after a crash: the crashed one, until a restart). */
  b: Services;
  clock: ManualClock;
  organizationId: string;
  keyId: string;
  leaseSeconds: number;
}

export function processOf(system: LedgerSystem, process: Process): Services {
  return process === "A" ? system.a : system.b;
}

/** Whether the process that took the hold still runs, and so may settle or release it. */
export function reachable(model: Readonly<LedgerModel>, held: ModelHold): boolean {
  if (held.process === "A") return true;
  return held.life === model.bLife && model.b !== "crashed";
}

/** Whether a process that is gone or taken for dead took the hold: the sweep returns it. */
export function orphaned(model: Readonly<LedgerModel>, held: ModelHold): boolean {
  if (held.process === "A") return false;
  return held.life < model.bLife || model.b !== "alive";
}

/**
 * Money held in leases (taken from the balance row: spendable, but not by a stored hold), all
 * of it or only that of processes other than `except`.
 */
export async function leaseMoney(system: LedgerSystem, except?: Process): Promise<number> {
  const owner = except ? processOf(system, except).ledger.owner : "";
  const [row] = await system.a.database.db.rows<{ total: number | string | null }>(sql`
    select sum(amount_nanos - coalesce(charged_nanos, 0)) as total from reservations
    where organization_id = ${system.organizationId} and kind = 'lease' and status = 'held'
      and owner <> ${owner}`);
  return Number(row?.total ?? 0);
}

export async function keySpent(system: LedgerSystem): Promise<number> {
  const [row] = await system.a.database.db.rows<{ spent_nanos: number | string }>(sql`
    select spent_nanos from api_keys where id = ${system.keyId}`);
  return Number(row?.spent_nanos ?? Number.NaN);
}

/** Every charge entry's amount, by reference and part. */
export async function chargeEntries(
  system: LedgerSystem,
): Promise<{ reference: string | null; memo: string | null; amount: number }[]> {
  const rows = await system.a.database.db.rows<{
    reference: string | null;
    memo: string | null;
    amount_nanos: number | string;
  }>(sql`
    select reference, memo, amount_nanos from ledger_entries
    where organization_id = ${system.organizationId} and kind = 'charge'`);
  return rows.map((row) => ({
    reference: row.reference,
    memo: row.memo,
    amount: -Number(row.amount_nanos),
  }));
}

/** The parts a cost is charged in: one, or research then inference, as a request with research. */
export function costParts(actualNanos: number, split: boolean): ChargeItem[] {
  if (!split) return [{ amountNanos: actualNanos, memo: "inference" }];
  const research = Math.floor(actualNanos / 3);
  return [
    { amountNanos: research, memo: "research" },
    { amountNanos: actualNanos - research, memo: "inference" },
  ];
}

/** The refusal's code when `work` is refused for want of money, else rethrows. */
export async function refusalOf<T>(work: () => Promise<T>): Promise<T | { refused: string }> {
  try {
    return await work();
  } catch (error) {
    // For want of credits (402), or by the key's own spend limit (403).
    if (
      error instanceof ServiceError &&
      ["insufficient_credits", "forbidden"].includes(error.kind)
    ) {
      return { refused: error.code };
    }
    throw error;
  }
}

export function isRefusal(value: unknown): value is { refused: string } {
  return typeof value === "object" && value !== null && "refused" in value;
}

/** The model of a hold given back whole: a stored one's money returns to the balance and key. */
export function giveBack(model: LedgerModel, held: ModelHold): void {
  if (!held.open) return;
  held.open = false;
  if (held.leased) return;
  model.balance += held.amount;
  if (held.keyed) model.keySpent -= held.amount;
}

/**
 * The model of a sweep once the lease has run out: the stored holds of processes gone or taken
 * for dead come back (their leases too, which changes nothing spendable).
 */
export function sweepOrphans(model: LedgerModel): void {
  for (const held of model.holds) {
    if (!held.leased && orphaned(model, held)) giveBack(model, held);
  }
}
