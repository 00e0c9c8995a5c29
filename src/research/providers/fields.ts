import { plainText } from "./plain-text.js";

/** Narrowing helpers for provider JSON, in which any field may be missing or mistyped. */

export type JsonObject = Record<string, unknown>;

/** Longest title kept. */
export const MAX_TITLE_CHARS = 500;
/** Longest snippet kept: an excerpt, not the article. */
export const MAX_SNIPPET_CHARS = 2_000;
/** Longest body text kept; what reaches the model is trimmed further to its token budget. */
export const MAX_TEXT_CHARS = 20_000;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function objectField(object: JsonObject, key: string): JsonObject | null {
  const value = object[key];
  return isJsonObject(value) ? value : null;
}

/** The field as plain text (HTML stripped), or null when it is not a string or holds no text. */
export function textField(object: JsonObject, key: string, maxChars: number): string | null {
  const value = object[key];
  if (typeof value !== "string") return null;
  const text = plainText(value, maxChars);
  return text === "" ? null : text;
}

/** The non-empty strings of an array field, as plain text joined by " … "; null when none. */
export function joinedTextField(object: JsonObject, key: string, maxChars: number): string | null {
  const value = object[key];
  if (!Array.isArray(value)) return null;
  const parts = value
    .filter((part): part is string => typeof part === "string")
    .map((part) => plainText(part, maxChars))
    .filter((part) => part !== "");
  return parts.length > 0 ? plainText(parts.join(" … "), maxChars) : null;
}

/** An absolute http(s) URL, normalised; null for anything else (relative, javascript:, mailto:). */
export function httpUrlField(object: JsonObject, key: string): string | null {
  const value = object[key];
  if (typeof value !== "string") return null;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return null;
  }
  return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
}

/** The host of a URL without a leading `www.`, as a fallback name for the publisher. */
export function siteName(url: string): string | null {
  const host = new URL(url).hostname.replace(/^www\./i, "");
  return host === "" ? null : host;
}

/** The items of an array field; null when the field is absent or null; "invalid" for other types. */
export function arrayField(object: JsonObject, key: string): unknown[] | null | "invalid" {
  const value = object[key];
  if (value === undefined || value === null) return null;
  return Array.isArray(value) ? value : "invalid";
}

/** `limit` as a whole number of results in [0, max]; anything not a finite number counts as 0. */
export function resultCount(limit: number, max: number): number {
  if (!Number.isFinite(limit)) return 0;
  return Math.min(max, Math.max(0, Math.floor(limit)));
}

/** The query cut at a word boundary to what the API accepts. */
export function boundedQuery(
  query: string,
  maxChars: number,
  maxWords = Number.POSITIVE_INFINITY,
): string {
  const words = query.trim().split(/\s+/).filter(Boolean).slice(0, maxWords);
  let bounded = "";
  for (const word of words) {
    const next = bounded === "" ? word : `${bounded} ${word}`;
    if (next.length > maxChars) break;
    bounded = next;
  }
  return bounded === "" ? query.trim().slice(0, maxChars) : bounded;
}
