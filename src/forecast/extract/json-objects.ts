export type JsonObject = Record<string, unknown>;

/** An object written in the text, with where it ends, so later objects can win. */
export interface FoundObject {
  value: JsonObject;
  end: number;
}

// Bounds the scan from each "{" so an unclosed brace cannot make the search quadratic in a
// long reply.
const MAX_OBJECT_LENGTH = 20_000;
const MAX_NESTING = 4;

function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Index just past the brace that closes the one at `start`, or -1. */
function closingBrace(text: string, start: number): number {
  const limit = Math.min(text.length, start + MAX_OBJECT_LENGTH);
  let depth = 0;
  let quote: string | null = null;
  for (let index = start; index < limit; index++) {
    const char = text[index];
    if (quote !== null) {
      if (char === "\\") index++;
      else if (char === quote) quote = null;
    } else if (char === '"' || char === "'") {
      quote = char;
    } else if (char === "{") {
      depth++;
    } else if (char === "}") {
      depth--;
      if (depth === 0) return index + 1;
    }
  }
  return -1;
}

function parseJson(source: string): unknown {
  try {
    return JSON.parse(source);
  } catch {
    return undefined;
  }
}

/**
 * Models write near-JSON: Python dicts with single quotes, unquoted keys, bare percentages,
 * trailing commas. Repair those before giving up.
 */
function parseLenient(source: string): unknown {
  const strict = parseJson(source);
  if (strict !== undefined) return strict;
  const repaired = source
    .replace(/'((?:[^'\\\n]|\\.)*)'/g, (_, inner: string) => JSON.stringify(inner))
    .replace(/([{,]\s*)([A-Za-z_][\w ]*?)\s*:/g, '$1"$2":')
    .replace(/:\s*(-?\d+(?:\.\d+)?)\s*%/g, ': "$1%"')
    .replace(/,\s*([}\]])/g, "$1");
  return parseJson(repaired);
}

/** Every JSON object written in `text` (fenced or inline), in order. */
export function findJsonObjects(text: string): FoundObject[] {
  const found: FoundObject[] = [];
  let index = text.indexOf("{");
  while (index !== -1) {
    const end = closingBrace(text, index);
    const value = end === -1 ? undefined : parseLenient(text.slice(index, end));
    if (isJsonObject(value)) {
      found.push({ value, end });
      index = text.indexOf("{", end);
    } else {
      index = text.indexOf("{", index + 1);
    }
  }
  return found;
}

/** The object and the objects nested in it ({"forecast": {"A": 0.5}}), outermost first. */
export function withNested(object: JsonObject, depth = 0): JsonObject[] {
  if (depth >= MAX_NESTING) return [object];
  const nested = Object.values(object).filter(isJsonObject);
  return [object, ...nested.flatMap((inner) => withNested(inner, depth + 1))];
}

/** A key reduced to lowercase letters and digits: "Standard Deviation" → "standarddeviation". */
export function normalizeKey(key: string): string {
  return key.toLowerCase().replace(/[^a-z0-9]/g, "");
}
