/** The subschema at a path of keys inside a schema, if there is one. */
export function schemaAt(schema: unknown, keys: string[]): Record<string, unknown> | undefined {
  let current = schema;
  for (const key of keys) {
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return typeof current === "object" && current !== null
    ? (current as Record<string, unknown>)
    : undefined;
}
