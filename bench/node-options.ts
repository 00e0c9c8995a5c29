import { readFileSync } from "node:fs";

/**
 * The Node options `npm start` runs the server with, read from package.json's start script so
 * the benchmark cannot drift from it: every benchmark measures Sibyl as deployed.
 */
function startScriptOptions(): string[] {
  const manifest = JSON.parse(
    readFileSync(new URL("../package.json", import.meta.url), "utf8"),
  ) as { scripts: { start: string } };
  const words = manifest.scripts.start.split(/\s+/);
  const entry = words.indexOf("dist/cli.js");
  if (words[0] !== "node" || entry === -1) {
    throw new Error(`npm start is not "node [options] dist/cli.js …": ${manifest.scripts.start}`);
  }
  return words.slice(1, entry);
}

export const DEPLOYED_NODE_OPTIONS = startScriptOptions();
