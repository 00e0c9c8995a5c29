import * as fc from "fast-check";
import { nearMiss, type SchemaGuide } from "./schema.js";
import { percentEncode, urlText } from "./url-text.js";

export interface QueryParameter {
  name: string;
  schema?: unknown;
}

/** A query value as text: scalars as they print, anything else as JSON. */
function asText(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined) return "";
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

/**
 * Query strings around the documented parameters: their values near and past their limits,
 * repeated, bracketed or badly encoded, mixed with unknown parameters and credentials.
 */
export function queryStrings(
  parameters: QueryParameter[],
  guide: SchemaGuide,
  credentials: fc.Arbitrary<[string, string]>,
): fc.Arbitrary<string> {
  const documented = parameters.map((parameter) =>
    nearMiss(parameter.schema ?? {}, guide).map((value): [string, string] => [
      parameter.name,
      percentEncode(asText(value)),
    ]),
  );
  const known = documented.length ? [fc.oneof(...documented)] : [];
  const names = fc.constantFrom(...parameters.map((p) => p.name), "limit", "after", "x");
  const pair = fc.oneof(
    ...known,
    ...known,
    fc.tuple(names, urlText),
    fc.tuple(urlText, urlText),
    names.map((name): [string, string] => [`${name}[]`, "1"]),
    names.map((name): [string, string] => [`${name}[a][b]`, "1"]),
    credentials,
  );
  return fc
    .tuple(
      fc.array(pair, { maxLength: 4 }),
      fc.constantFrom("?", "?", "?", "??", "?&", "?=&=", "?a"),
      fc.constantFrom("&", "&", "&", "&&", ";"),
    )
    .map(([pairs, start, separator]) => {
      const text = pairs.map(([name, value]) => `${name}=${value}`).join(separator);
      return `${start}${text}`;
    });
}
