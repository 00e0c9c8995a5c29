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
 * - Where a schema forbids other properties (`additionalProperties: false`), Sibyl's documented
 *   extension fields are allowed there too; elsewhere the description already allows them.
 */

import type { SpecSchema } from "../../../scripts/openai-openapi/document.js";
import { componentOf } from "../../../scripts/openai-openapi/reachable.js";

type Schemas = Record<string, SpecSchema>;

const SCHEMA_MAPS = ["properties", "patternProperties", "$defs", "dependentSchemas"];
const SCHEMA_VALUES = [
  "items",
  "additionalProperties",
  "unevaluatedProperties",
  "unevaluatedItems",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "propertyNames",
];
const SCHEMA_LISTS = ["allOf", "anyOf", "oneOf", "prefixItems"];

export function prepareSchemas(schemas: Schemas, extensionFields: readonly string[]): Schemas {
  const prepare = (schema: unknown): unknown => {
    if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return schema;
    const { nullable, discriminator, ...rest } = schema as SpecSchema;
    const out: SpecSchema = {};
    for (const [keyword, value] of Object.entries(rest)) {
      if (SCHEMA_MAPS.includes(keyword) && isRecord(value)) {
        out[keyword] = Object.fromEntries(
          Object.entries(value).map(([name, inner]) => [name, prepare(inner)]),
        );
      } else if (SCHEMA_VALUES.includes(keyword)) {
        out[keyword] = prepare(value);
      } else if (SCHEMA_LISTS.includes(keyword) && Array.isArray(value)) {
        out[keyword] = value.map(prepare);
      } else {
        out[keyword] = value;
      }
    }
    if (isRecord(out.properties)) optionalMayBeNull(out, out.properties);
    if (Array.isArray(rest.allOf)) requiredStaysNonNull(out, rest.allOf, schemas);
    if (out.additionalProperties === false) allowExtensions(out, extensionFields);
    const union = unionOf(out, discriminator, schemas);
    const result = union ?? oneOfAsAnyOf(out);
    return nullable === true ? { anyOf: [result, { type: "null" }] } : result;
  };
  return Object.fromEntries(
    Object.entries(schemas).map(([name, schema]) => [name, prepare(schema) as SpecSchema]),
  );
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

function allowExtensions(schema: SpecSchema, fields: readonly string[]): void {
  const properties = isRecord(schema.properties) ? { ...schema.properties } : {};
  for (const field of fields) if (!(field in properties)) properties[field] = true;
  schema.properties = properties;
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
