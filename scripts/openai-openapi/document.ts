import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

/** A JSON Schema object as OpenAI's description writes it (OpenAPI 3.1, some 3.0 habits). */
export type SpecSchema = { [keyword: string]: unknown };

export interface OpenApiDocument {
  openapi: string;
  info?: { version?: string };
  paths: Record<string, unknown>;
  components: { schemas: Record<string, SpecSchema> };
}

/** Where the vendored copy came from (`source.json` beside it). */
export interface SpecSource {
  repository: string;
  path: string;
  /** The commit of openai/openai-openapi the file was taken from. */
  commit: string;
  committed_at?: string;
  retrieved_at?: string;
  sha256: string;
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
export const VENDORED_DIR = path.join(ROOT, "test", "support", "openai-openapi");
export const VENDORED_SPEC = path.join(VENDORED_DIR, "openapi.yaml");
export const VENDORED_SOURCE = path.join(VENDORED_DIR, "source.json");
/** Parsed copies keyed by content hash: YAML takes about a second to parse, JSON a few ms. */
const CACHE_DIR = path.join(ROOT, "node_modules", ".cache", "sibyl-openai-openapi");

export const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** Parses the description as JSON or YAML, and checks it is one. */
export function parseDocument(text: string): OpenApiDocument {
  const value: unknown = text.trimStart().startsWith("{")
    ? JSON.parse(text)
    : parse(text, { maxAliasCount: -1 });
  const document = value as Partial<OpenApiDocument> | null;
  if (
    typeof document?.openapi !== "string" ||
    typeof document.components?.schemas !== "object" ||
    document.components.schemas === null
  ) {
    throw new Error("not an OpenAPI description: no openapi version or components.schemas");
  }
  return document as OpenApiDocument;
}

export function readSource(file = VENDORED_SOURCE): SpecSource {
  return JSON.parse(readFileSync(file, "utf8")) as SpecSource;
}

/**
 * The vendored description (or another file), parsed once per content: later loads (other test
 * files, later runs) read the parsed copy from node_modules/.cache. A cache that cannot be
 * written is skipped.
 */
export function loadVendoredDocument(file = VENDORED_SPEC): OpenApiDocument {
  const text = readFileSync(file, "utf8");
  const cached = path.join(CACHE_DIR, `${sha256(text)}.json`);
  try {
    return JSON.parse(readFileSync(cached, "utf8")) as OpenApiDocument;
  } catch {
    const document = parseDocument(text);
    try {
      mkdirSync(CACHE_DIR, { recursive: true });
      // Written aside and renamed: test files loading at once never read half a file.
      const partial = `${cached}.${process.pid}.tmp`;
      writeFileSync(partial, JSON.stringify(document));
      renameSync(partial, cached);
    } catch {
      // A read-only checkout parses each time; nothing else changes.
    }
    return document;
  }
}
