import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { exceedsValueBudget, MAX_SCAN_STEPS } from "../../src/http/json-value-budget.js";

/** What the count stands for: each container once and each separator between its items. */
function structuralCount(value: unknown): number {
  if (value === null || typeof value !== "object") return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return (
    1 +
    Math.max(0, children.length - 1) +
    children.reduce<number>((sum, child) => sum + structuralCount(child), 0)
  );
}

/** Strings made of the characters that could mislead a scan: quotes, backslashes, brackets. */
const trickyString = fc.string({
  unit: fc.constantFrom('"', "\\", ",", "[", "]", "{", "}", ":", "a", "\n", "é", "😀"),
  maxLength: 12,
});

const tricky = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    trickyString,
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 6 }),
    fc.dictionary(trickyString, tie("value"), { maxKeys: 5 }),
  ),
})).value;

describe("the JSON value budget", () => {
  it("counts exactly what parsing builds, whatever the strings hold", () => {
    fc.assert(
      fc.property(
        fc.oneof(tricky, fc.jsonValue()),
        fc.constantFrom(undefined, 0, 2, "\t"),
        fc.nat(40),
        (value, indent, limit) => {
          const text = JSON.stringify(value, null, indent);
          expect(exceedsValueBudget(text, limit)).toBe(structuralCount(value) > limit);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it("refuses text whose escaped quotes, backslash runs or padding would make counting slow", () => {
    const over = MAX_SCAN_STEPS + 1;
    expect(exceedsValueBudget(JSON.stringify({ a: '"'.repeat(over) }), 10)).toBe(true);
    expect(exceedsValueBudget(JSON.stringify({ a: "\\".repeat(over) }), 10)).toBe(true);
    expect(exceedsValueBudget(`{"a":1${" ".repeat(over)}}`, 10)).toBe(true);
    expect(exceedsValueBudget(`{"a":${"1".repeat(over)}}`, 10)).toBe(true);
    // Prose with quotes and newlines now and then is counted in full, and fits.
    const prose = 'He said "no".\nThen "yes", [maybe] {later}.\n'.repeat(50_000);
    expect(exceedsValueBudget(JSON.stringify({ a: prose }), 10)).toBe(false);
  });
});
