import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readAnswer } from "../../src/forecast/index.js";
import { reasoning } from "./generators/reasoning.js";

/*
 * A short sentence of reasoning ("Several factors matter here.", "Kalshi currently puts this at
 * 12%.") is not a name standing alone: a written answer stated as a paragraph of its own, then
 * followed by such reasoning, is read as that name, never as a later sentence.
 */

const ANSWERS = ["Doha", "Jane Smith", "Paris Saint-Germain", "Trinidad and Tobago", "Apollo 11"];
const SHORT_SENTENCES = [
  "Several factors matter here.",
  "Kalshi currently puts this at 12%.",
  "Pollsters currently puts this at 58%.",
  "Turnout matters most.",
  "Timing remains uncertain.",
];

describe("a name alone, then reasoning", () => {
  it("is the answer, not a later short sentence", async () => {
    await fc.assert(
      fc.property(
        fc.constantFrom(...ANSWERS),
        fc.constantFrom("", "**"),
        fc.array(fc.constantFrom(...SHORT_SENTENCES), { minLength: 1, maxLength: 5 }),
        reasoning(3),
        (answer, emphasis, sentences, why) => {
          const reply = `${emphasis}${answer}${emphasis}\n\n${why}\n\n${sentences.join("\n\n")}`;
          expect(readAnswer("free_response", reply, null).answer).toEqual({
            type: "free_response",
            text: answer,
          });
        },
      ),
      { numRuns: 800 },
    );
  });
});
