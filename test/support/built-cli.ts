import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/*
 * Tests that start `sibyl` as a process run the build, as users do: under tsx each start
 * compiled the source again and took about twice as long. The build is brought up to date
 * before any test runs, so a process never runs older code than the source under test.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const SOURCE = path.join(ROOT, "src");
const BUILD = path.join(ROOT, "dist");

/** The installed command's entry point: `node BUILT_CLI serve` is `sibyl serve`. */
export const BUILT_CLI = path.join(BUILD, "cli.js");

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
