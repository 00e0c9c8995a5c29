/**
 * How OpenAI's description is read as JSON Schema 2020-12 for validation. Its schemas are
 * OpenAPI 3.1 with habits that plain JSON Schema reads differently from OpenAI's SDKs:
 *
 * - `nullable: true` (OpenAPI 3.0) is kept in places: it becomes `anyOf: [schema, {type: null}]`.
 * - A `oneOf` or `anyOf` with a `discriminator` is decided by its tag: the value's `type` (or
 *   whichever property the discriminator names) must be one of the variants' tags, and the value
 *   must then match the variant(s) with that tag. An unknown tag fails; two variants sharing a
 *   tag (an overlap) are tried as alternatives.
 * - Any other `oneOf` is read as `anyOf`: OpenAI writes unions that overlap (objects open to
 *   more properties match several variants) and its SDKs take the first variant that fits, so
 *   "exactly one" would fail valid bodies without finding a fault.
 * - A property the schema does not require may be null as well as absent: OpenAI's servers send
 *   null for unset optional fields (`user`, a stream's first `usage`, a batch's `output_file_id`)
 *   and its SDKs, generated from this description, type every optional property as nullable
 *   (pydantic `Optional[...] = None`). A required property stays exactly as written, also when
 *   an `allOf` requires what one of its parts defines: null fails there unless its schema says so.
 * - Every property of a body must be one the schema defines for that place: OpenAI leaves most
 *   objects open to more properties, which would let any field Sibyl adds by mistake through.
 *   Each place a value sits (a property, an array's items, a component checked whole) is closed
 *   with `unevaluatedProperties: false`, which counts the properties every `$ref`, `allOf` and
 *   matching `anyOf` variant defines there. Sibyl's documented extensions are defined at their
 *   places beforehand (sibyl-extensions.ts). A schema that defines no properties at all (`{}`,
 *   `{type: object}`: a tool's JSON schema) stays open, as it is meant to be.
 */

import type { SpecSchema } from "../../../scripts/openai-openapi/document.js";
import { componentOf } from "../../../scripts/openai-openapi/reachable.js";

type Schemas = Record<string, SpecSchema>;

/**
 * Subschemas by where they apply: to the values inside the instance (closed there), or to the
 * instance itself as parts of the schema around them (left to that schema to close).
 */
const VALUE_MAPS = ["properties", "patternProperties"];
const PART_MAPS = ["$defs", "dependentSchemas"];
const VALUE_SCHEMAS = [
  "items",
  "additionalProperties",
  "unevaluatedProperties",
  "unevaluatedItems",
  "contains",
];
const PART_SCHEMAS = ["not", "if", "then", "else", "propertyNames"];
const VALUE_LISTS = ["prefixItems"];
const PART_LISTS = ["allOf", "anyOf", "oneOf"];
/** Keywords by which a schema says something of an object's properties. */
const PROPERTY_KEYWORDS = [
  "properties",
  "patternProperties",
  "additionalProperties",
  "unevaluatedProperties",
  "$ref",
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "if",
  "enum",
  "const",
  "required",
];

/** The schemas read as described above; each component stays open until a place closes it. */
export function prepareSchemas(schemas: Schemas): Schemas {
  const prepare = (schema: unknown, isValue: boolean): unknown => {
    if (!isRecord(schema)) return schema;
    const { nullable, discriminator, ...rest } = schema as SpecSchema;
    const out: SpecSchema = {};
    for (const [keyword, value] of Object.entries(rest)) {
      const asValue = VALUE_MAPS.includes(keyword) || VALUE_SCHEMAS.includes(keyword);
      if ((VALUE_MAPS.includes(keyword) || PART_MAPS.includes(keyword)) && isRecord(value)) {
        out[keyword] = Object.fromEntries(
          Object.entries(value).map(([name, inner]) => [name, prepare(inner, asValue)]),
        );
      } else if (VALUE_SCHEMAS.includes(keyword) || PART_SCHEMAS.includes(keyword)) {
        out[keyword] = prepare(value, asValue);
      } else if (
        (VALUE_LISTS.includes(keyword) || PART_LISTS.includes(keyword)) &&
        Array.isArray(value)
      ) {
        out[keyword] = value.map((inner) => prepare(inner, VALUE_LISTS.includes(keyword)));
      } else {
        out[keyword] = value;
      }
    }
    if (isRecord(out.properties)) optionalMayBeNull(out, out.properties);
    if (Array.isArray(rest.allOf)) requiredStaysNonNull(out, rest.allOf, schemas);
    if (isFreeForm(out)) out.additionalProperties = true;
    const union = unionOf(out, discriminator, schemas);
    const result = union ?? oneOfAsAnyOf(out);
    const closed = isValue ? closedObject(result) : result;
    return nullable === true ? { anyOf: [closed, { type: "null" }] } : closed;
  };
  return Object.fromEntries(
    Object.entries(schemas).map(([name, schema]) => [name, prepare(schema, false) as SpecSchema]),
  );
}

/** An object schema that says nothing of its properties: any are allowed. */
function isFreeForm(schema: SpecSchema): boolean {
  if (PROPERTY_KEYWORDS.some((keyword) => keyword in schema)) return false;
  return schema.type === undefined || schema.type === "object";
}

/** The schema, with any property no part of it defines failing. */
export function closedObject(schema: SpecSchema): SpecSchema {
  if ("unevaluatedProperties" in schema) return schema;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (schema.type !== undefined && !types.includes("object")) return schema;
  return { ...schema, unevaluatedProperties: false };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function optionalMayBeNull(schema: SpecSchema, properties: Record<string, unknown>): void {
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  schema.properties = Object.fromEntries(
    Object.entries(properties).map(([name, property]) => [
      name,
      required.has(name) || property === true ? property : { anyOf: [property, { type: "null" }] },
    ]),
  );
}

/**
 * An `allOf` whose parts require what another part defines as optional: those properties are
 * made non-null again (unless their own schema accepts null), as the parts were loosened alone.
 */
function requiredStaysNonNull(schema: SpecSchema, parts: unknown[], schemas: Schemas): void {
  const resolved = parts.map((part) => resolve(part, schemas));
  const required = new Set(
    [schema, ...resolved].flatMap((part) => (Array.isArray(part?.required) ? part.required : [])),
  );
  const nonNull: Record<string, unknown> = {};
  for (const name of required) {
    const defined = resolved
      .map((part) => (isRecord(part?.properties) ? part.properties[name] : undefined))
      .find((property) => property !== undefined);
    if (defined !== undefined && !acceptsNull(defined, schemas, new Set())) {
      nonNull[name] = { not: { type: "null" } };
    }
  }
  if (Object.keys(nonNull).length > 0) {
    schema.allOf = [...(schema.allOf as unknown[]), { properties: nonNull }];
  }
}

function resolve(schema: unknown, schemas: Schemas): SpecSchema | undefined {
  if (!isRecord(schema)) return undefined;
  const name = componentOf(schema.$ref);
  return name === null ? schema : schemas[name];
}

/** Whether a schema as OpenAI wrote it lets null through. */
function acceptsNull(schema: unknown, schemas: Schemas, seen: Set<string>): boolean {
  if (schema === true) return true;
  if (!isRecord(schema)) return false;
  const name = componentOf(schema.$ref);
  if (name !== null) {
    if (seen.has(name)) return false;
    seen.add(name);
    return acceptsNull(schemas[name], schemas, seen);
  }
  if (schema.nullable === true || schema.const === null) return true;
  if (schema.type === "null" || (Array.isArray(schema.type) && schema.type.includes("null"))) {
    return true;
  }
  if (Array.isArray(schema.enum)) return schema.enum.includes(null);
  const branches = [schema.anyOf, schema.oneOf].filter(Array.isArray).flat();
  if (branches.length > 0) return branches.some((branch) => acceptsNull(branch, schemas, seen));
  return schema.type === undefined && schema.allOf === undefined;
}

/** Adds a keyword's subschemas to `allOf`, so it cannot collide with one already there. */
function withAllOf(schema: SpecSchema, keyword: string, parts: unknown[]): SpecSchema {
  const { [keyword]: _replaced, ...rest } = schema;
  const allOf = Array.isArray(rest.allOf) ? rest.allOf : [];
  return { ...rest, allOf: [...allOf, ...parts] };
}

function oneOfAsAnyOf(schema: SpecSchema): SpecSchema {
  if (!Array.isArray(schema.oneOf)) return schema;
  return withAllOf(schema, "oneOf", [{ anyOf: schema.oneOf }]);
}

/** A discriminated union as tag checks; null when it has no discriminator or a tag is unknown. */
function unionOf(schema: SpecSchema, discriminator: unknown, schemas: Schemas): SpecSchema | null {
  if (!isRecord(discriminator) || typeof discriminator.propertyName !== "string") return null;
  const keyword = Array.isArray(schema.oneOf)
    ? "oneOf"
    : Array.isArray(schema.anyOf)
      ? "anyOf"
      : null;
  if (keyword === null) return null;
  const tag = discriminator.propertyName;
  const mapping = isRecord(discriminator.mapping) ? discriminator.mapping : {};
  const variants = schema[keyword] as unknown[];
  const byTag = new Map<string, unknown[]>();
  for (const variant of variants) {
    const ref = isRecord(variant) ? variant.$ref : undefined;
    const mapped = Object.keys(mapping).filter((value) => mapping[value] === ref);
    const tags = [...mapped, ...(tagsOf(variant, tag, schemas, new Set()) ?? [])];
    // A variant whose tag cannot be read leaves the union to plain alternatives.
    if (tags.length === 0) return null;
    for (const value of new Set(tags)) byTag.set(value, [...(byTag.get(value) ?? []), variant]);
  }
  // "If the tag is this value, the variant(s) with it": written as "not the tag, or a match".
  const decided = [...byTag].map(([value, matching]) => ({
    anyOf: [
      { not: { required: [tag], properties: { [tag]: { const: value } } } },
      matching.length === 1 ? matching[0] : { anyOf: matching },
    ],
  }));
  return withAllOf(schema, keyword, [
    { type: "object", required: [tag], properties: { [tag]: { enum: [...byTag.keys()] } } },
    ...decided,
  ]);
}

/** The tag values a variant declares for the discriminator's property (`enum` or `const`). */
function tagsOf(
  variant: unknown,
  tag: string,
  schemas: Schemas,
  seen: Set<string>,
): string[] | null {
  if (!isRecord(variant)) return null;
  const name = componentOf(variant.$ref);
  if (name !== null) {
    if (seen.has(name)) return null;
    seen.add(name);
    return tagsOf(schemas[name], tag, schemas, seen);
  }
  const property = isRecord(variant.properties) ? variant.properties[tag] : undefined;
  if (isRecord(property)) {
    if (typeof property.const === "string") return [property.const];
    if (Array.isArray(property.enum)) return property.enum.filter((v) => typeof v === "string");
  }
  for (const part of Array.isArray(variant.allOf) ? variant.allOf : []) {
    const found = tagsOf(part, tag, schemas, seen);
    if (found !== null && found.length > 0) return found;
  }
  return null;
}
