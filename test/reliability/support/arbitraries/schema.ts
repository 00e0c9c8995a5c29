import * as fc from "fast-check";
import { anyJson, awkwardString, edgeNumber } from "./values.js";

/** The JSON Schema keywords the request schemas of /openapi.json use. */
interface JsonSchema {
  type?: string;
  const?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  format?: string;
  pattern?: string;
}

export interface SchemaGuide {
  /** Resolves a `$ref` to the schema it names. */
  deref(schema: unknown): unknown;
  /** Valid values for properties of these names, in place of what their schema alone allows. */
  hints: Record<string, fc.Arbitrary<unknown>>;
}

/**
 * Values around a schema: some valid, most valid but for one mistake at one place (a wrong
 * type, a number past its limit, a missing field, an unknown one), some of any shape at all.
 */
export function nearMiss(schema: unknown, guide: SchemaGuide): fc.Arbitrary<unknown> {
  const valid = conforming(schema, guide);
  return fc.oneof(
    { weight: 3, arbitrary: valid },
    { weight: 4, arbitrary: fc.tuple(valid, fc.nat(), mistake).map(([v, at, m]) => m(v, at)) },
    { weight: 1, arbitrary: anyJson },
  );
}

/** Values the schema accepts. */
function conforming(raw: unknown, guide: SchemaGuide): fc.Arbitrary<unknown> {
  const schema = guide.deref(raw) as JsonSchema;
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return fc.oneof(...branches.map((branch) => conforming(branch, guide)));
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  switch (schema.type) {
    case "object":
      return object(schema, guide);
    case "array":
      return fc.array(conforming(schema.items ?? {}, guide), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(
          schema.maxItems ?? Number.POSITIVE_INFINITY,
          (schema.minItems ?? 0) + 3,
        ),
      });
    case "string":
      return string(schema);
    case "integer":
      return integer(schema);
    case "number":
      return fc.double({
        min: schema.minimum ?? -1e6,
        max: schema.maximum ?? 1e6,
        noNaN: true,
        noDefaultInfinity: true,
      });
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function object(schema: JsonSchema, guide: SchemaGuide): fc.Arbitrary<unknown> {
  const fields = Object.fromEntries(
    Object.entries(schema.properties ?? {}).map(([name, property]) => [
      name,
      guide.hints[name] ?? conforming(property, guide),
    ]),
  );
  return fc.record(fields, { requiredKeys: schema.required ?? [] });
}

function string(schema: JsonSchema): fc.Arbitrary<string> {
  const dates = fc.date({
    min: new Date("1900-01-01T00:00:00Z"),
    max: new Date("2100-12-31T23:59:59Z"),
    noInvalidDate: true,
  });
  if (schema.format === "date") return dates.map((date) => date.toISOString().slice(0, 10));
  if (schema.format === "date-time") return dates.map((date) => date.toISOString());
  // The one pattern in use: a date-time without a zone.
  if (schema.pattern) return dates.map((date) => date.toISOString().slice(0, 19));
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? Math.max(min, 40);
  const fits = (text: string) => [...text].length >= min && [...text].length <= max;
  return fc.oneof(fc.string({ minLength: min, maxLength: max }), awkwardString.filter(fits));
}

function integer(schema: JsonSchema): fc.Arbitrary<number> {
  const min = schema.minimum ?? -(2 ** 31);
  const max = schema.maximum ?? 2 ** 31;
  const edges = [min, max, 0, 1, 2 ** 53 - 1, 1e21].filter((n) => n >= min && n <= max);
  return fc.oneof(fc.integer({ min, max: Math.min(max, 2 ** 31) }), fc.constantFrom(...edges));
}

/** Replaces, at the `at`-th place of a value (modulo their number), what was there. */
type Mistake = (value: unknown, at: number) => unknown;

const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: edgeNumber },
  { weight: 3, arbitrary: awkwardString },
  { weight: 3, arbitrary: fc.constantFrom(null, true, false, [], {}, [null], "", "0") },
  { weight: 1, arbitrary: anyJson },
);

const mistake: fc.Arbitrary<Mistake> = fc.oneof(
  wrongValue.map(
    (wrong): Mistake =>
      (value, at) =>
        replaceAt(value, at, () => wrong),
  ),
  fc.constant<Mistake>((value, at) => replaceAt(value, at, () => undefined)),
  fc.tuple(awkwardString, anyJson).map(
    ([key, extra]): Mistake =>
      (value, at) =>
        replaceAt(value, at, (old) => withKey(old, key, extra)),
  ),
);

function withKey(value: unknown, key: string, extra: unknown): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  return { ...value, [key]: extra };
}

/** Every place in a value, as paths of keys and indexes; the root is the empty path. */
function places(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  const here = [path];
  if (Array.isArray(value)) {
    return here.concat(...value.map((item, index) => places(item, [...path, index])));
  }
  if (value !== null && typeof value === "object") {
    return here.concat(...Object.entries(value).map(([key, item]) => places(item, [...path, key])));
  }
  return here;
}

/** A copy of `value` with `change` applied at one place; `undefined` removes what was there. */
function replaceAt(value: unknown, at: number, change: (old: unknown) => unknown): unknown {
  const all = places(value);
  const path = all[at % all.length] ?? [];
  const copy = structuredClone(value);
  if (path.length === 0) return change(copy) ?? copy;
  let parent = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path.at(-1) as string | number;
  const changed = change(parent[last]);
  if (changed !== undefined) parent[last] = changed;
  else if (Array.isArray(parent)) parent.splice(last as number, 1);
  else delete parent[last];
  return copy;
}
