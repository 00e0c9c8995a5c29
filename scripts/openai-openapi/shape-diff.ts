import type { OpenApiDocument } from "./document.js";
import { reachableComponents } from "./reachable.js";

/** What changed between two descriptions in the schemas Sibyl serves and all they reach. */
export interface ShapeChanges {
  /** Served shapes the new description no longer has. */
  missing: string[];
  added: string[];
  removed: string[];
  changed: { component: string; lines: string[] }[];
}

/** Keywords that only document: a change to them alone changes no response. */
const DOCUMENTATION = new Set(["description", "example", "examples", "title", "x-oaiMeta"]);

export function diffServedShapes(
  before: OpenApiDocument,
  after: OpenApiDocument,
  roots: readonly string[],
): ShapeChanges {
  const old = before.components.schemas;
  const now = after.components.schemas;
  const was = new Set(reachableComponents(old, roots));
  const is = new Set(reachableComponents(now, roots));
  const changed: ShapeChanges["changed"] = [];
  for (const component of [...is].filter((name) => was.has(name)).sort()) {
    const lines = differences(old[component], now[component], "");
    if (lines.length > 0) changed.push({ component, lines });
  }
  return {
    missing: roots.filter((root) => !(root in now)),
    added: [...is].filter((name) => !was.has(name)).sort(),
    removed: [...was].filter((name) => !is.has(name)).sort(),
    changed,
  };
}

function differences(before: unknown, after: unknown, at: string): string[] {
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    return keys
      .filter((key) => !DOCUMENTATION.has(key))
      .flatMap((key) => {
        const where = at === "" ? key : `${at}.${key}`;
        if (!(key in before)) return [`+ ${where}: ${show(after[key])}`];
        if (!(key in after)) return [`- ${where}`];
        return differences(before[key], after[key], where);
      });
  }
  if (Array.isArray(before) && Array.isArray(after) && isSetLike(at)) {
    const gone = before.filter((item) => !after.some((other) => same(item, other)));
    const come = after.filter((item) => !before.some((other) => same(item, other)));
    if (gone.length === 0 && come.length === 0) return [];
    return [
      `~ ${at}: ${[...come.map((v) => `+${show(v)}`), ...gone.map((v) => `-${show(v)}`)].join(" ")}`,
    ];
  }
  if (Array.isArray(before) && Array.isArray(after) && before.length === after.length) {
    return before.flatMap((item, index) => differences(item, after[index], `${at}[${index}]`));
  }
  return same(before, after) ? [] : [`~ ${at}: ${show(before)} → ${show(after)}`];
}

/** `required` and `enum` are sets: their order means nothing. */
function isSetLike(at: string): boolean {
  return at.endsWith("required") || at.endsWith("enum");
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? "undefined";
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}

export function formatChanges(changes: ShapeChanges): string {
  const out: string[] = [];
  if (changes.missing.length > 0) {
    out.push(`Served shapes gone from the new description: ${changes.missing.join(", ")}`);
  }
  if (changes.added.length > 0) out.push(`Schemas newly reached: ${changes.added.join(", ")}`);
  if (changes.removed.length > 0)
    out.push(`Schemas no longer reached: ${changes.removed.join(", ")}`);
  for (const { component, lines } of changes.changed) {
    out.push(`${component}:`, ...lines.map((line) => `  ${line}`));
  }
  return out.length === 0 ? "No change to the shapes Sibyl serves." : out.join("\n");
}
