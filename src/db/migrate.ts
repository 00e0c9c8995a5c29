import { type Migration, type MigrationProvider, type MigrationResultSet, Migrator } from "kysely";
import type { DatabaseHandle, DialectName } from "./connect.js";
import { foundation } from "./migrations/0001_foundation.js";
import { files } from "./migrations/0002_files.js";
import { batches } from "./migrations/0003_batches.js";
import { moneySafety } from "./migrations/0004_money_safety.js";
import { newsArchive } from "./migrations/0005_news_archive.js";
import { keyScopes } from "./migrations/0006_key_scopes.js";
import { dashboardLinks } from "./migrations/0007_dashboard_links.js";
import { batchKeys } from "./migrations/0008_batch_keys.js";
import { creditLeases } from "./migrations/0009_credit_leases.js";
import { keyChangeNotices } from "./migrations/0010_key_change_notices.js";
import { heldByOrganization } from "./migrations/0011_held_by_organization.js";
import { plainRowIds } from "./migrations/0012_plain_row_ids.js";
import { newsOrigin } from "./migrations/0013_news_origin.js";
import { paymentRecords } from "./migrations/0014_payment_records.js";
import { newsVersions } from "./migrations/0015_news_versions.js";
import { ledgerIdKey } from "./migrations/0016_ledger_id_key.js";
import { trackRecord } from "./migrations/0017_track_record.js";
import { refillChallenges } from "./migrations/0018_refill_challenges.js";
import { calibrations } from "./migrations/0019_calibrations.js";
import { forecastRawAnswers } from "./migrations/0020_forecast_raw_answers.js";
import { scoreTotals } from "./migrations/0021_score_totals.js";
import { calibrationSources } from "./migrations/0022_calibration_sources.js";

/** Every migration, in order. Names sort lexically; never rename or edit a shipped one. */
function migrations(dialect: DialectName): Record<string, Migration> {
  return {
    "0001_foundation": foundation(dialect),
    "0002_files": files(dialect),
    "0003_batches": batches(dialect),
    "0004_money_safety": moneySafety(),
    "0005_news_archive": newsArchive(dialect),
    "0006_key_scopes": keyScopes(dialect),
    "0007_dashboard_links": dashboardLinks(),
    "0008_batch_keys": batchKeys(),
    "0009_credit_leases": creditLeases(),
    "0010_key_change_notices": keyChangeNotices(dialect),
    "0011_held_by_organization": heldByOrganization(),
    "0012_plain_row_ids": plainRowIds(dialect),
    "0013_news_origin": newsOrigin(),
    "0014_payment_records": paymentRecords(),
    "0015_news_versions": newsVersions(dialect),
    "0016_ledger_id_key": ledgerIdKey(),
    "0017_track_record": trackRecord(dialect),
    "0018_refill_challenges": refillChallenges(),
    "0019_calibrations": calibrations(dialect),
    "0020_forecast_raw_answers": forecastRawAnswers(),
    "0021_score_totals": scoreTotals(dialect),
    "0022_calibration_sources": calibrationSources(),
  };
}

class StaticMigrationProvider implements MigrationProvider {
  constructor(private readonly dialect: DialectName) {}

  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations(this.dialect);
  }
}

export interface MigrationOutcome {
  applied: string[];
}

/**
 * Rounds of migration on SQLite. PostgreSQL serializes migrators with an advisory lock. On SQLite
 * every pending migration runs in one `begin immediate` transaction (sqlite-driver.ts), so a
 * second process waits for the first to commit; if it waits longer than the busy timeout, its
 * attempt fails having changed nothing, and looking again finds the work done.
 */
const SQLITE_MIGRATION_ROUNDS = 3;

/** Brings the schema up to date; safe to run from several processes at once. */
export function migrateToLatest(handle: DatabaseHandle): Promise<MigrationOutcome> {
  return migrateInRounds(handle, (migrator) => migrator.migrateToLatest());
}

/** Brings the schema up to the migration named `last` and no further: what an older release ran. */
export function migrateUpTo(handle: DatabaseHandle, last: string): Promise<MigrationOutcome> {
  return migrateInRounds(handle, (migrator) => migrator.migrateTo(last));
}

async function migrateInRounds(
  handle: DatabaseHandle,
  run: (migrator: Migrator) => Promise<MigrationResultSet>,
): Promise<MigrationOutcome> {
  for (let round = 1; ; round++) {
    try {
      return await migrateOnce(handle, run);
    } catch (error) {
      if (handle.dialect !== "sqlite" || round >= SQLITE_MIGRATION_ROUNDS) throw error;
    }
  }
}

async function migrateOnce(
  handle: DatabaseHandle,
  run: (migrator: Migrator) => Promise<MigrationResultSet>,
): Promise<MigrationOutcome> {
  const migrator = new Migrator({
    db: handle.kysely,
    provider: new StaticMigrationProvider(handle.dialect),
  });
  const { error, results } = await run(migrator);
  if (error) {
    const failed = results?.find((r) => r.status === "Error")?.migrationName;
    const message = error instanceof Error ? error.message : String(error);
    // No migration named: the database could not even be asked which ones it has.
    throw new Error(
      failed
        ? `migration ${failed} failed: ${message}`
        : `could not migrate the database: ${message}`,
      { cause: error },
    );
  }
  return {
    applied: (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName),
  };
}
