import { existsSync } from "node:fs";
import type { Config } from "../config/index.js";

/** The SQLite file the configuration names when it does not exist yet; null otherwise. */
export function missingSqliteFile(config: Config): string | null {
  const url = config.database.url;
  if (!url.startsWith("sqlite:")) return null;
  const file = url.slice("sqlite:".length);
  return file === ":memory:" || existsSync(file) ? null : file;
}

/**
 * The stderr line of a command that creates a database: a wrong --config or working directory
 * shows at once instead of as a key another server refuses.
 */
export function newDatabaseNotice(file: string, configFile: string | null): string {
  const source = configFile === null ? "the built-in defaults" : `the configuration ${configFile}`;
  return `sibyl: created a new database at ${file} (from ${source})`;
}
