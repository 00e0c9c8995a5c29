import path from "node:path";
import { loadConfig } from "../../src/config/index.js";
import { createServices, type Services } from "../../src/services.js";
import type { Clock } from "../../src/util/clock.js";

/** Services over `databaseUrl`, configured the way the CLI would be from the environment. */
export function openServices(
  databaseUrl: string,
  dataDir: string,
  clock?: Clock,
): Promise<Services> {
  const config = loadConfig({
    env: { SIBYL_DATA_DIR: dataDir, SIBYL_DATABASE_URL: databaseUrl },
    cwd: dataDir,
  });
  return createServices(config, clock ? { clock } : {});
}

export function sqliteUrl(dataDir: string): string {
  return `sqlite:${path.join(dataDir, "sibyl.db")}`;
}
