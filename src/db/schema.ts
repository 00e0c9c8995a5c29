import type { Generated } from "kysely";

/** Times are integer Unix seconds; money is integer nano-dollars (1e-9 USD). */
export interface OrganizationsTable {
  id: string;
  name: string;
  balance_nanos: number;
  created_at: number;
}

export interface ApiKeysTable {
  id: string;
  organization_id: string;
  key_hash: string;
  prefix: string;
  created_at: number;
  revoked_at: number | null;
}

export type LedgerKind = "topup" | "charge" | "refund" | "adjustment";

/** Append-only: rows are never updated or deleted. */
export interface LedgerEntriesTable {
  id: Generated<number>;
  organization_id: string;
  kind: LedgerKind;
  amount_nanos: number;
  balance_after_nanos: number;
  reference: string | null;
  memo: string | null;
  created_at: number;
}

export type ReservationStatus = "held" | "settled" | "released";

export interface ReservationsTable {
  id: string;
  organization_id: string;
  amount_nanos: number;
  status: ReservationStatus;
  charged_nanos: number | null;
  reference: string | null;
  created_at: number;
  finished_at: number | null;
}

export interface RateLimitWindowsTable {
  organization_id: string;
  window_start: number;
  request_count: number;
}

export interface Database {
  organizations: OrganizationsTable;
  api_keys: ApiKeysTable;
  ledger_entries: LedgerEntriesTable;
  reservations: ReservationsTable;
  rate_limit_windows: RateLimitWindowsTable;
}
