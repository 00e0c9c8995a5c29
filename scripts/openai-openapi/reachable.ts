import type { SpecSchema } from "./document.js";

const COMPONENT_REF = "#/components/schemas/";

/** The component a `$ref` names, or null for any other reference. */
export function componentOf(ref: unknown): string | null {
  return typeof ref === "string" && ref.startsWith(COMPONENT_REF)
    ? decodeURIComponent(ref.slice(COMPONENT_REF.length))
    : null;
}

/** The given components and every component their schemas reach through `$ref`, sorted. */
export function reachableComponents(
  schemas: Record<string, SpecSchema>,
  roots: readonly string[],
): string[] {
  const seen = new Set<string>();
  const pending = [...roots];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (typeof value !== "object" || value === null) return;
    for (const [key, inner] of Object.entries(value)) {
      const name = key === "$ref" ? componentOf(inner) : null;
      if (name !== null) pending.push(name);
      else visit(inner);
    }
  };
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (seen.has(name) || !(name in schemas)) continue;
    seen.add(name);
    visit(schemas[name]);
  }
  return [...seen].sort();
}
