import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ServiceError } from "../../src/errors.js";
import { ANSWER_TYPES, type AnswerType } from "../../src/forecast/types.js";
import { checkedOutcome } from "../../src/track/outcome.js";
import { parseResolutionFile } from "../../src/track/resolution-file.js";

/** What each answer type takes, stated independently of the guard. */
function accepts(
  type: AnswerType,
  options: Record<string, string> | null,
  value: unknown,
): boolean {
  switch (type) {
    case "binary":
      return value === 0 || value === 1;
    case "multiple_choice":
      return (
        typeof value === "string" &&
        /^[A-Z]$/.test(value) &&
        (options === null || Object.hasOwn(options, value))
      );
    case "continuous":
    case "continuous_value_only":
      return typeof value === "number" && Number.isFinite(value);
    case "free_response":
      return typeof value === "string" && value.length > 0;
  }
}

const anyOutcome = fc.oneof(
  fc.constantFrom(
    0,
    1,
    -0,
    0.5,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    "A",
    "B",
    "Z",
    "a",
    "",
    "AB",
  ),
  fc.double(),
  fc.integer(),
  fc.string({ maxLength: 3 }),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.array(fc.integer(), { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 2 }), fc.integer(), { maxKeys: 2 }),
);

const options = fc.option(
  fc
    .uniqueArray(fc.constantFrom(..."ABCDEFGH"), { minLength: 2, maxLength: 5 })
    .map((letters) => Object.fromEntries(letters.map((letter) => [letter, `option ${letter}`]))),
);

describe("the outcome guard", () => {
  it("takes exactly the outcomes of the question's type, and refuses the rest with a 422 naming it", () => {
    fc.assert(
      fc.property(fc.constantFrom(...ANSWER_TYPES), options, anyOutcome, (type, known, value) => {
        const optionMap = type === "multiple_choice" ? known : null;
        if (accepts(type, optionMap, value)) {
          expect(checkedOutcome(type, optionMap, value)).toBe(value);
          return;
        }
        let refused: unknown = null;
        try {
          checkedOutcome(type, optionMap, value);
        } catch (error) {
          refused = error;
        }
        expect(refused).toBeInstanceOf(ServiceError);
        const error = refused as ServiceError;
        expect(error.kind).toBe("unprocessable");
        expect(error.code).toBe("invalid_outcome");
        expect(error.message).toMatch(
          type === "multiple_choice" && typeof value === "string" && /^[A-Z]$/.test(value)
            ? /one of the question's options/
            : new RegExp(`\\(${type} question\\)`),
        );
      }),
      { numRuns: 2000 },
    );
  });
});

describe("resolution files", () => {
  const entry = fc.record({
    question_id: fc.string({ minLength: 1, maxLength: 20 }),
    outcome: fc.oneof(
      fc.constantFrom(0, 1),
      fc.constantFrom("A", "B"),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
    ),
    resolved_at: fc.oneof(fc.constant("2025-01-02"), fc.integer({ min: 0, max: 2_000_000_000 })),
  });

  it("reads back every well-formed JSON Lines entry, in order, and skips each broken line by number", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(entry, fc.constant(null)), { maxLength: 30 }), (entries) => {
        const lines = entries.map((value) => (value === null ? "{broken" : JSON.stringify(value)));
        const parsed = parseResolutionFile(lines.join("\n"));
        const kept = entries.flatMap((value, index) =>
          value === null ? [] : [[value, index] as const],
        );
        expect(
          parsed.resolutions.map((r) => [
            r.questionIds,
            r.input.outcome,
            r.input.resolved_at,
            r.at,
          ]),
        ).toEqual(
          kept.map(([value, index]) => [
            [value.question_id],
            // A JSON file holds no negative zero: -0 reads back as 0.
            JSON.parse(JSON.stringify(value.outcome)),
            value.resolved_at,
            `line ${index + 1}`,
          ]),
        );
        expect(parsed.skipped.map((s) => s.at)).toEqual(
          entries.flatMap((value, index) => (value === null ? [`line ${index + 1}`] : [])),
        );
      }),
    );
  });

  it("never throws on arbitrary text, and names a question for every resolution it reads", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        const parsed = parseResolutionFile(text);
        for (const resolution of parsed.resolutions) {
          expect(resolution.questionIds.length).toBeGreaterThan(0);
          expect(resolution.questionIds.every((id) => id.length > 0)).toBe(true);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
