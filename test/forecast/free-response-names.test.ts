import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { extractAnswer } from "../../src/forecast/index.js";

/* Names with titles, written as the committed answer before prose about rivals or after a mark. */
const TITLES = ["Rep.", "Sen.", "Gov.", "Dr.", "Gen.", "Prof.", "Mr.", "Ms."];
const SURNAMES = ["Okafor", "Alvarez", "Lin", "Nakamura", "Haddad", "Kowalski"];
const REASONING =
  "Seniority favours one candidate (14 years), but leadership bypassed it 3 times since 2011.";

const name = fc
  .tuple(fc.constantFrom(...TITLES), fc.constantFrom(...SURNAMES))
  .map(([title, surname]) => `${title} ${surname}`);

function textOf(reply: string): string | null {
  const answer = extractAnswer("free_response", reply, null);
  return answer?.type === "free_response" ? answer.text : null;
}

describe("free response names", () => {
  it("a titled name is kept whole in every marked and unmarked shape", () => {
    fc.assert(
      fc.property(name, name, (chosen, rival) => {
        const replies = [
          `**${chosen}**\n\n${rival} remains a strong alternative.`,
          `${chosen}.\n\nThe main rival is ${rival}; it is close.`,
          `Answer: ${chosen}`,
          `Answer: ${chosen} (about 55%)`,
          `\\boxed{${chosen}}`,
          `Answer: ${rival}\n\nUpdate: on reflection. Final answer: ${chosen}`,
        ];
        for (const reply of replies) {
          const text = `${REASONING}\n\n${reply}`;
          expect(textOf(text), text).toBe(chosen);
        }
      }),
      { numRuns: 100 },
    );
  });

  it("a refusal is no answer", () => {
    for (const refusal of [
      "I'd rather not guess",
      "I would rather not guess",
      "I won't pick one",
      "I can't responsibly name a single winner",
      "I cannot call this one",
      "I'm unable to single out a favourite",
    ]) {
      expect(textOf(`${REASONING}\n\n${refusal}; there isn't enough information.`)).toBeNull();
    }
  });
});
