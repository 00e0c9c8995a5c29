import * as fc from "fast-check";
import { awkwardString } from "./values.js";

/**
 * Percent-encodes text as UTF-8, like encodeURIComponent, except that a lone surrogate (which
 * has no UTF-8 form) becomes U+FFFD instead of an exception.
 */
export function percentEncode(text: string): string {
  return [...Buffer.from(text, "utf8")]
    .map((byte) =>
      /[A-Za-z0-9\-_.!~*'()]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`,
    )
    .join("");
}

/**
 * Bytes the HTTP client refuses on a request line (controls, spaces, `#`, `?`, anything beyond
 * Latin-1) are percent-encoded; the rest go out raw.
 */
export function onRequestLine(text: string): string {
  return text.replaceAll(/[^\u0021-\u00ff]|[#?]/gu, percentEncode);
}

/** Text for one segment of a path or one query value, encoded well, badly or not at all. */
export const urlText: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: awkwardString.map(percentEncode) },
  { weight: 2, arbitrary: awkwardString.map(onRequestLine) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "%",
      "%Z",
      "%ZZ",
      "%00",
      "%2F",
      "%2f%2e%2e",
      "%C3%28",
      "%E0%A4%A",
      "%ED%A0%80",
      "%FF%FE",
      "%25",
      "%252e%252e",
      "..%2F..%2Fetc%2Fpasswd",
      "\u00e9",
      "\u00ff\u00fe",
      "+",
      "a+b",
      ";",
      "&",
      "=",
      "[]",
      "{}",
      "*",
      "~",
      "a".repeat(5_000),
    ),
  },
);
