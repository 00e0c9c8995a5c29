import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/*
 * Tests that start `sibyl` as a process run the build, as users do: under tsx each start
 * compiled the source again and took about twice as long. Browser tests serve the dashboard's
 * build, which each of them used to make again. Both are brought up to date before any test
 * runs, so no test runs older code than the source under test.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const SOURCE = path.join(ROOT, "src");
const BUILD = path.join(ROOT, "dist");
const DASHBOARD_SOURCE = path.join(ROOT, "web");

/** The installed command's entry point: `node BUILT_CLI serve` is `sibyl serve`. */
export const BUILT_CLI = path.join(BUILD, "cli.js");

/** The dashboard as `npm run build` writes it and `sibyl serve` serves it. */
export const BUILT_DASHBOARD = path.join(BUILD, "web");

/** A source file whose compiled counterpart is missing or older than it, or null. */
function staleSource(): string | null {
  for (const entry of readdirSync(SOURCE, { recursive: true, encoding: "utf8" })) {
    if (!entry.endsWith(".ts") || entry.endsWith(".d.ts")) continue;
    const compiled = path.join(BUILD, entry.replace(/\.ts$/, ".js"));
    if (!existsSync(compiled)) return entry;
    if (statSync(compiled).mtimeMs < statSync(path.join(SOURCE, entry)).mtimeMs) return entry;
  }
  return null;
}

/** Compiles the server (`tsc -p tsconfig.build.json`) when the build is older than its source. */
export function buildServerIfStale(): void {
  const stale = staleSource();
  if (stale === null) return;
  process.stdout.write(
    `src/${stale} changed since the last build: compiling dist/ for the tests\n`,
  );
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  try {
    execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], {
      cwd: ROOT,
      stdio: "pipe",
    });
  } catch (error) {
    const output = (error as { stdout?: Buffer }).stdout?.toString() ?? "";
    throw new Error(`the build the process tests run failed (npm run build):\n${output}`);
  }
}

/** Whether a file under web/ is newer than the dashboard's build, or there is no build. */
function dashboardIsStale(): boolean {
  const built = path.join(BUILT_DASHBOARD, "index.html");
  if (!existsSync(built)) return true;
  const builtAt = statSync(built).mtimeMs;
  return readdirSync(DASHBOARD_SOURCE, { recursive: true, encoding: "utf8" }).some(
    (entry) => statSync(path.join(DASHBOARD_SOURCE, entry)).mtimeMs > builtAt,
  );
}

/** Builds the dashboard (`vite build`, as `npm run build` does) when web/ changed since. */
export async function buildDashboardIfStale(): Promise<void> {
  if (!dashboardIsStale()) return;
  process.stdout.write("web/ changed since the last build: building dist/web for the tests\n");
  // Loaded here only: every test process imports this file for the build's paths.
  const { build } = await import("vite");
  await build({ configFile: path.join(DASHBOARD_SOURCE, "vite.config.ts"), logLevel: "error" });
}
