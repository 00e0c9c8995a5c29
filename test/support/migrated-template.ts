import { createHash, randomBytes } from "node:crypto";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import SqliteDatabase from "better-sqlite3";
import pg from "pg";
import { connectDatabase } from "../../src/db/connect.js";
import { migrateToLatest } from "../../src/db/migrate.js";
import { LEDGER_ID_KEY_PURPOSE } from "../../src/db/schema.js";
import { waitForNoSessions } from "./postgres-sessions.js";

/*
 * Databases with every migration already applied, copied from a template migrated once per set of
 * migrations: migrating a fresh database for each of the suite's servers took a large share of
 * its time. Each copy then gets its own installation secret, as a fresh installation makes one.
 * Tests of migrations themselves ask for an empty database instead.
 */

const SOURCE_ROOT = path.resolve(import.meta.dirname, "../../src/db");

let fingerprint: string | undefined;

/** Changes whenever a migration, or how they are run, changes: each version has its template. */
function migrationsFingerprint(): string {
  if (fingerprint) return fingerprint;
  const hash = createHash("sha256");
  const migrations = path.join(SOURCE_ROOT, "migrations");
  const files = [
    path.join(SOURCE_ROOT, "migrate.ts"),
    ...readdirSync(migrations)
      .sort()
      .map((name) => path.join(migrations, name)),
  ];
  for (const file of files) hash.update(file).update(readFileSync(file));
  fingerprint = hash.digest("hex").slice(0, 16);
  return fingerprint;
}

const newSecret = () => randomBytes(16).toString("hex");
const REKEY_SQLITE = "update id_keys set key_hex = ? where purpose = ?";
const REKEY_POSTGRES = "update id_keys set key_hex = $1 where purpose = $2";

const sqliteTemplatePath = () =>
  path.join(tmpdir(), "sibyl-test-templates", `${migrationsFingerprint()}.db`);

/**
 * Writes a migrated SQLite database at `file`, a copy of the template the suite's global set-up
 * made; false, writing nothing, when there is none (the server then migrates as usual).
 */
export function copyMigratedSqlite(file: string): boolean {
  const template = sqliteTemplatePath();
  if (!existsSync(template)) return false;
  copyFileSync(template, file);
  const copy = new SqliteDatabase(file);
  try {
    copy.prepare(REKEY_SQLITE).run(newSecret(), LEDGER_ID_KEY_PURPOSE);
  } finally {
    copy.close();
  }
  return true;
}

/** Makes the SQLite template when missing; the PostgreSQL one is made on first use. */
export async function buildSqliteTemplate(): Promise<void> {
  const template = sqliteTemplatePath();
  if (existsSync(template)) return;
  mkdirSync(path.dirname(template), { recursive: true });
  // Built aside and renamed into place, so a process running beside this one never copies half.
  const building = `${template}.${process.pid}.${randomBytes(4).toString("hex")}`;
  const handle = connectDatabase(`sqlite:${building}`);
  try {
    await migrateToLatest(handle);
  } finally {
    // Closing the last connection folds the write-ahead log into the file: one file to copy.
    await handle.close();
  }
  renameSync(building, template);
}

/** PostgreSQL error codes met while copying a template another process may be using or replacing. */
const TEMPLATE_MISSING = "3D000";
const TEMPLATE_BUSY = "55006";
const COPY_ATTEMPTS = 20;

/**
 * Creates database `name` on the server `admin` is connected to, as a copy of the migrated
 * template (made when missing); `url` is how to reach the new database.
 */
export async function createMigratedPostgres(
  admin: pg.Client,
  name: string,
  url: string,
  adminUrl: string,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const template = await postgresTemplate(admin, adminUrl);
    try {
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
      break;
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (attempt >= COPY_ATTEMPTS || (code !== TEMPLATE_BUSY && code !== TEMPLATE_MISSING)) {
        throw error;
      }
      if (code === TEMPLATE_MISSING) postgresTemplates.delete(adminUrl);
      await sleep(20 * attempt);
    }
  }
  const copy = new pg.Client({ connectionString: url });
  await copy.connect();
  try {
    await copy.query(REKEY_POSTGRES, [newSecret(), LEDGER_ID_KEY_PURPOSE]);
  } finally {
    await copy.end();
  }
}

const postgresTemplates = new Map<string, Promise<string>>();

function postgresTemplate(admin: pg.Client, adminUrl: string): Promise<string> {
  let template = postgresTemplates.get(adminUrl);
  if (!template) {
    template = buildPostgresTemplate(admin, adminUrl);
    postgresTemplates.set(adminUrl, template);
    template.catch(() => postgresTemplates.delete(adminUrl));
  }
  return template;
}

/** Any constant: processes building the template take this advisory lock in turn. */
const TEMPLATE_LOCK = 7_514_052;

async function buildPostgresTemplate(admin: pg.Client, adminUrl: string): Promise<string> {
  const template = `sibyl_template_${migrationsFingerprint()}`;
  await admin.query("SELECT pg_advisory_lock($1)", [TEMPLATE_LOCK]);
  try {
    const found = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [template]);
    if (found.rowCount) return template;
    const building = `${template}_${randomBytes(4).toString("hex")}`;
    await admin.query(`CREATE DATABASE ${building}`);
    const url = new URL(adminUrl);
    url.pathname = `/${building}`;
    const handle = connectDatabase(url.toString());
    try {
      await migrateToLatest(handle);
    } finally {
      await handle.close();
    }
    await waitForNoSessions(admin, building);
    await admin.query(`ALTER DATABASE ${building} RENAME TO ${template}`);
    return template;
  } finally {
    await admin.query("SELECT pg_advisory_unlock($1)", [TEMPLATE_LOCK]);
  }
}
