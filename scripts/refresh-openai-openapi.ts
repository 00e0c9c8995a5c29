/**
 * Replaces the vendored copy of OpenAI's OpenAPI description and shows what changed in the
 * shapes Sibyl serves. Downloads only the path or URL it is given:
 *
 *   npm run openai-openapi:refresh -- <path or URL> [--commit SHA] [--dry-run] [--into DIR]
 *
 * Then run `npx vitest run test/conformance` (docs/development.md).
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import {
  loadVendoredDocument,
  parseDocument,
  readSource,
  type SpecSource,
  sha256,
  VENDORED_DIR,
} from "./openai-openapi/document.js";
import { SERVED_SHAPES } from "./openai-openapi/served-shapes.js";
import { diffServedShapes, formatChanges } from "./openai-openapi/shape-diff.js";

const USAGE =
  "usage: refresh-openai-openapi <path or URL of openapi.yaml> [--commit SHA] [--dry-run] [--into DIR]";

async function readSpec(from: string): Promise<string> {
  if (!/^https?:\/\//.test(from)) return readFileSync(from, "utf8");
  const response = await fetch(from);
  if (!response.ok) throw new Error(`${from} answered ${response.status}`);
  return response.text();
}

/** A commit named in a raw.githubusercontent.com or github.com URL of the repository. */
function commitInUrl(from: string): string | null {
  return /openai\/openai-openapi\/(?:raw\/|blob\/)?([0-9a-f]{40})\//.exec(from)?.[1] ?? null;
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      commit: { type: "string" },
      "dry-run": { type: "boolean", default: false },
      into: { type: "string", default: VENDORED_DIR },
    },
  });
  const from = positionals[0];
  if (!from || positionals.length > 1) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const dir = values.into;
  const specFile = path.join(dir, "openapi.yaml");
  const sourceFile = path.join(dir, "source.json");
  const text = await readSpec(from);
  const next = parseDocument(text);
  const current = readSource(sourceFile);
  const changes = diffServedShapes(
    loadVendoredDocument(specFile),
    next,
    SERVED_SHAPES.map((shape) => shape.component),
  );
  process.stdout.write(`Vendored: ${current.commit} (${current.sha256.slice(0, 12)})\n`);
  process.stdout.write(
    `New:      ${from} (${sha256(text).slice(0, 12)}), OpenAPI ${next.openapi}\n\n`,
  );
  process.stdout.write(`${formatChanges(changes)}\n`);
  if (values["dry-run"]) return 0;

  const commit = values.commit ?? commitInUrl(from);
  if (!commit) {
    process.stderr.write("\nNot written: name the commit the file comes from with --commit SHA.\n");
    return 2;
  }
  const source: SpecSource = {
    repository: current.repository,
    path: current.path,
    commit,
    retrieved_at: new Date().toISOString(),
    sha256: sha256(text),
  };
  writeFileSync(specFile, text);
  writeFileSync(sourceFile, `${JSON.stringify(source, null, 2)}\n`);
  process.stdout.write(
    `\nWrote ${specFile} and ${sourceFile}. Check LICENSE is still the repository's, then run: npx vitest run test/conformance\n`,
  );
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
