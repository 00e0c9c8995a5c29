import * as fc from "fast-check";
import { urlText } from "./url-text.js";

export interface KnownIds {
  /** Objects of the organization making the requests. */
  own: string[];
  /** Objects of another organization: never to be served to the caller. */
  foreign: string[];
}

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Ids shaped like Sibyl's own (`file-…`, `batch_…`) that name nothing. */
const madeUpId = fc
  .tuple(
    fc.constantFrom("file-", "batch_", "org_", "key_", "req_", "file_", "batch-", ""),
    fc.string({ unit: fc.constantFrom(...BASE62), minLength: 0, maxLength: 30 }),
  )
  .map(([prefix, body]) => `${prefix}${body}`);

/** One path segment where an id goes: real ids, made-up ones, and segments meant to mislead. */
export function idSegments(ids: KnownIds): fc.Arbitrary<string> {
  const real = [...ids.own, ...ids.foreign];
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...real) },
    { weight: 2, arbitrary: madeUpId },
    { weight: 3, arbitrary: urlText },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        "",
        ".",
        "..",
        "%2e",
        "%2e%2e",
        "../../etc/passwd",
        "..%2f..%2fetc%2fpasswd",
        "sibyl-baseline",
        "Qwen/Qwen3-8B",
        "Qwen%2FQwen3-8B",
        "content",
        "cancel",
        "null",
        "undefined",
        "0",
        "-1",
        "a".repeat(20_000),
      ),
    },
    { weight: 1, arbitrary: fc.constantFrom(...real).map((id) => `${id}/`) },
    { weight: 1, arbitrary: fc.constantFrom(...real).map((id) => `${id}%00`) },
    { weight: 1, arbitrary: fc.constantFrom(...real).map((id) => id.toUpperCase()) },
  );
}

/** The path itself bent: stray slashes, dot segments, letter case, encoded letters, extra parts. */
export function bentPaths(path: string): fc.Arbitrary<string> {
  const segments = path.split("/").filter(Boolean);
  return fc.oneof(
    fc.constantFrom(
      `${path}/`,
      `/${path}`,
      path.replace("/", "//"),
      path.replaceAll("/", "//"),
      path.toUpperCase(),
      path.replace(/[a-z]/, (letter) => `%${letter.charCodeAt(0).toString(16)}`),
      `/${segments[0]}/./${segments.slice(1).join("/")}`,
      `/${segments.join("/")}/..`,
      `/x/..${path}`,
      `${path}%2F`,
      `${path};jsessionid=1`,
      `${path}/%2e%2e`,
      `/${segments.join("%2F")}`,
      `${path}\u00e9`,
    ),
    urlText.map((extra) => `${path}/${extra}`),
  );
}
