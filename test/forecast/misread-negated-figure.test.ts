import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readAnswer } from "../../src/forecast/index.js";

/*
 * A figure followed by its event, with no chance word ("70% it doesn't happen"), is the chance
 * of what that event says: of "no" when the event is negated.
 */

const SUBJECTS = ["it", "this", "that it", "that this"];
const NEGATED = [
  "doesn't happen",
  "won't pass",
  "will not happen",
  "does not resolve yes",
  "isn't approved",
];
const AFFIRMED = ["happens", "passes", "will happen", "resolves yes", "gets approved"];

const percent = fc.integer({ min: 1, max: 99 });

describe("a figure followed by its event", () => {
  it("is the chance of no when the event is negated", async () => {
    await fc.assert(
      fc.property(
        percent,
        fc.constantFrom(...SUBJECTS),
        fc.constantFrom(...NEGATED),
        (figure, subject, event) => {
          const reply = `Weighing it all, ${figure}% ${subject} ${event}.`;
          expect(readAnswer("binary", reply, null).answer).toEqual({
            type: "binary",
            probability: (100 - figure) / 100,
          });
        },
      ),
      { numRuns: 200 },
    );
  });

  it("is the chance of yes when it is not", async () => {
    await fc.assert(
      fc.property(
        percent,
        fc.constantFrom(...SUBJECTS),
        fc.constantFrom(...AFFIRMED),
        (figure, subject, event) => {
          const reply = `Weighing it all, ${figure}% ${subject} ${event}.`;
          expect(readAnswer("binary", reply, null).answer).toEqual({
            type: "binary",
            probability: figure / 100,
          });
        },
      ),
      { numRuns: 200 },
    );
  });
});
