import { buildDashboardIfStale, buildServerIfStale } from "./builds.js";
import { buildSqliteTemplate } from "./migrated-template.js";

/**
 * Before any test file runs: the builds that `sibyl` processes and browser tests run, and the
 * migrated SQLite database every test server's is copied from.
 */
export default async function setup(): Promise<void> {
  buildServerIfStale();
  await buildDashboardIfStale();
  await buildSqliteTemplate();
}
