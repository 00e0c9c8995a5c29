import * as fc from "fast-check";
import { contentTypes } from "./raw-bodies.js";

export interface Keys {
  /** The key of the organization making the requests. */
  caller: string;
  /** Keys that must not let a request through or into another organization. */
  revoked: string;
  stranger: string;
  /** Marks made-up credentials so a leak of any of them into the log is found. */
  canary: string;
}

/** Authorization values: the right key in every spelling, and everything that is not one. */
export function authorizations(keys: Keys): fc.Arbitrary<string | null> {
  const fake = `sk_${keys.canary}${"x".repeat(20)}`;
  const basic = Buffer.from(`user:${keys.canary}`).toString("base64");
  return fc.oneof(
    { weight: 6, arbitrary: fc.constant(`Bearer ${keys.caller}`) },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        `bearer ${keys.caller}`,
        `BEARER ${keys.caller}`,
        `Bearer  ${keys.caller}`,
        `Bearer\t${keys.caller}`,
        `Bearer ${keys.caller} `,
        ` Bearer ${keys.caller}`,
        `Bearer ${keys.caller} ${keys.caller}`,
        `Bearer ${keys.caller}\u00e9`,
        `Bearer ${keys.caller.toUpperCase()}`,
        `Bearer ${keys.caller.slice(0, -1)}`,
        `Bearer ${keys.caller},Bearer ${keys.stranger}`,
        `Token ${keys.caller}`,
        keys.caller,
      ),
    },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        null,
        "",
        "Bearer",
        "Bearer ",
        `Bearer ${keys.revoked}`,
        `Bearer ${fake}`,
        `Basic ${basic}`,
        `Bearer sk_${keys.canary}${"A".repeat(8_000)}`,
        `Bearer ${keys.canary}`,
        `Bearer sk_${keys.canary}\u00ff\u00fe`,
      ),
    },
  );
}

const ACCEPTS = [
  "application/json",
  "text/event-stream",
  "application/xml",
  "text/html",
  "*/*",
  "",
  "application/json;q=0, */*;q=0",
  "garbage",
];

const EXTRA_HEADERS = fc.constantFrom<[string, string][]>(
  [],
  [],
  [["x-request-id", "trace-123"]],
  [["x-request-id", "not a valid id!"]],
  [["x-request-id", "r".repeat(500)]],
  [["content-encoding", "gzip"]],
  [["content-encoding", "br"]],
  [["content-encoding", "x-unknown"]],
  [["accept-encoding", "gzip, br, zstd"]],
  [["accept-charset", "utf-16"]],
  [["x-forwarded-for", "not-an-ip, ::1, 999.1.1.1"]],
  [["x-forwarded-proto", "gopher"]],
  [["host", "evil.example"]],
  [["host", ""]],
  [["origin", "https://evil.example"]],
  [["x-http-method-override", "DELETE"]],
  [["range", "bytes=0-1"]],
  [["if-none-match", "*"]],
  [["x-big", "h".repeat(15_000)]],
);

/** Header sets: authorization, content type, accept and the odd extra header, all varied. */
export function headerSets(
  keys: Keys,
  contentType: string | null,
): fc.Arbitrary<Record<string, string>> {
  return fc
    .record({
      authorization: authorizations(keys),
      contentType: fc.oneof(
        { weight: 3, arbitrary: fc.constant(contentType) },
        { weight: 2, arbitrary: contentTypes },
      ),
      accept: fc.option(fc.constantFrom(...ACCEPTS), { freq: 2 }),
      extra: EXTRA_HEADERS,
      apiKeyHeader: fc.option(fc.constantFrom(keys.caller, `sk_${keys.canary}`), { freq: 8 }),
    })
    .map(({ authorization, contentType: type, accept, extra, apiKeyHeader }) => {
      const headers: Record<string, string> = Object.fromEntries(extra);
      if (authorization !== null) headers.authorization = authorization;
      if (type !== null) headers["content-type"] = type;
      if (accept !== null) headers.accept = accept;
      if (apiKeyHeader !== null) headers["x-api-key"] = apiKeyHeader;
      return headers;
    });
}
