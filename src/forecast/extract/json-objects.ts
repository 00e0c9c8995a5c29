export type JsonObject = Record<string, unknown>;

// Answer objects are small. The bounds keep a long reply full of stray or nested braces from
// costing more than a bounded number of parse attempts over bounded spans.
const MAX_OBJECT_LENGTH = 20_000;
const MAX_REPAIRED_LENGTH = 2_000;
const MAX_PARSE_ATTEMPTS = 500;
const MAX_NESTING = 4;

function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const DOUBLE_QUOTE = 34;
const SINGLE_QUOTE = 39;
const BACKSLASH = 92;
const NEWLINE = 10;

interface Span {
  start: number;
  end: number;
}

/**
 * Every balanced pair of braces, found in one pass from the first brace. Quotes count only
 * inside braces, so an apostrophe in prose cannot hide what follows; strings never span lines,
 * so an unclosed quote ends with its line.
 */
function braceSpans(text: string): Span[] {
  const spans: Span[] = [];
  const open: number[] = [];
  let quote = -1;
  for (let index = text.indexOf("{"); index !== -1 && index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (quote !== -1) {
      if (code === BACKSLASH) index++;
      else if (code === quote || code === NEWLINE) quote = -1;
    } else if (code === OPEN_BRACE) {
      open.push(index);
    } else if (code === CLOSE_BRACE) {
      const start = open.pop();
      if (start !== undefined) spans.push({ start, end: index + 1 });
    } else if ((code === DOUBLE_QUOTE || code === SINGLE_QUOTE) && open.length > 0) {
      quote = code;
    }
  }
  return spans;
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
  if (strict !== undefined || source.length > MAX_REPAIRED_LENGTH) return strict;
  const repaired = source
    .replace(/'((?:[^'\\\n]|\\.)*)'/g, (_, inner: string) => JSON.stringify(inner))
    .replace(/([{,]\s*)([A-Za-z_][\w ]*?)\s*:/g, '$1"$2":')
    .replace(/:\s*(-?\d+(?:\.\d+)?)\s*%/g, ': "$1%"')
    .replace(/,\s*([}\]])/g, "$1");
  return parseJson(repaired);
}

/** Every JSON object written in `text` (fenced or inline), in order; later ones are preferred. */
export function findJsonObjects(text: string): JsonObject[] {
  const spans = braceSpans(text)
    .filter((span) => span.end - span.start <= MAX_OBJECT_LENGTH)
    .sort((a, b) => b.end - a.end)
    .slice(0, MAX_PARSE_ATTEMPTS)
    .sort((a, b) => a.start - b.start);
  const found: JsonObject[] = [];
  let coveredUntil = 0;
  for (const span of spans) {
    if (span.start < coveredUntil) continue;
    const value = parseLenient(text.slice(span.start, span.end));
    if (isJsonObject(value)) {
      found.push(value);
      coveredUntil = span.end;
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
