import { buildSqliteTemplate } from "./migrated-template.js";

/** Before any test file runs: the migrated SQLite database every test server's is copied from. */
export default async function setup(): Promise<void> {
  await buildSqliteTemplate();
}
