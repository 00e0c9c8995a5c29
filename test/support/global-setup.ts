import { buildServerIfStale } from "./built-cli.js";
import { buildSqliteTemplate } from "./migrated-template.js";

/**
 * Before any test file runs: the build the `sibyl` processes run, and the migrated SQLite
 * database every test server's is copied from.
 */
export default async function setup(): Promise<void> {
  buildServerIfStale();
  await buildSqliteTemplate();
}
