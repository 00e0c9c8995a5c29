import { sql } from "kysely";
import type { Reservation } from "../../../src/billing/ledger.js";
import { ServiceError } from "../../../src/errors.js";
import type { Services } from "../../../src/services.js";
import type { ManualClock } from "../../support/manual-clock.js";

/** What the ledger should hold for one organization, kept by the model as commands run. */
export interface LedgerModel {
  /** Spendable balance: what `Ledger.balance` reports. */
  balance: number;
  keyLimit: number;
  /** The limited key's settled charges plus its open stored holds. */
  keySpent: number;
  holds: ModelHold[];
  /** Single-use references that were charged. */
  chargedOnce: Set<string>;
  /** Whether process B was taken for dead (its holds returned by A's sweep). */
  bDead: boolean;
}

export type Process = "A" | "B";

export interface ModelHold {
  reservation: Reservation;
  amount: number;
  process: Process;
  /** Held from a process's in-memory lease (the amount stays in the spendable balance). */
  leased: boolean;
  /** Held against the limited key's spend. */
  keyed: boolean;
  /** A batch line's single-use reference, or null. */
  once: string | null;
  open: boolean;
}

/** The system under test: one organization with a limited key, seen by two processes. */
export interface LedgerSystem {
  a: Services;
  b: Services;
  clock: ManualClock;
  organizationId: string;
  keyId: string;
  leaseSeconds: number;
}

export function processOf(system: LedgerSystem, process: Process): Services {
  return process === "A" ? system.a : system.b;
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
