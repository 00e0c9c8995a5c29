import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";

const CONFIG = fileURLToPath(new URL("../../../web/vite.config.ts", import.meta.url));

/** Builds the dashboard from web/ into a fresh temporary directory, as `npm run build` would. */
export async function buildDashboard(): Promise<string> {
  const outDir = mkdtempSync(path.join(tmpdir(), "sibyl-dashboard-web-"));
  await build({ configFile: CONFIG, logLevel: "error", build: { outDir, emptyOutDir: true } });
  return outDir;
}
