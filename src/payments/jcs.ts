/** A JSON value as the Payment scheme's `request` and `opaque` parameters carry it. */
export type JsonValue =
  | string
  | number
  | boolean
  | null
  | JsonValue[]
  | { [key: string]: JsonValue };

/**
 * The JSON Canonicalization Scheme (RFC 8785): object members sorted by their UTF-16 code units,
 * no whitespace, numbers and strings as ECMAScript's JSON serialization writes them. Challenge ids
 * are HMACs over this text, so every implementation must produce the same bytes.
 */
export function canonicalJson(value: JsonValue): string {
  if (value === null || typeof value !== "object") {
    if (typeof value === "number" && !Number.isFinite(value)) {
      throw new RangeError("JSON has no representation for a non-finite number");
    }
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const members = Object.keys(value)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key] as JsonValue)}`);
  return `{${members.join(",")}}`;
}

/** base64url without padding of the canonical JSON text. */
export function encodeCanonical(value: JsonValue): string {
  return Buffer.from(canonicalJson(value), "utf8").toString("base64url");
}

export function encodeJson(value: unknown): string {
  return Buffer.from(JSON.stringify(value), "utf8").toString("base64url");
}

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

/** Parses base64url JSON; null when the text is not base64url or does not decode to JSON. */
export function decodeJson(text: string): unknown {
  if (!BASE64URL.test(text)) return null;
  try {
    return JSON.parse(Buffer.from(text, "base64url").toString("utf8")) as unknown;
  } catch {
    return null;
  }
}
