import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readAnswer } from "../../src/forecast/index.js";

/*
 * A written answer is the one the reply commits to, never a later paragraph about its rivals
 * ("Other candidates include Riyadh and Istanbul", "John Doe is the main rival"), never a
 * refusal or a giving up ("I'm not going to guess.", "Hard to say."), and never a template's
 * slot copied unfilled ("Answer: [city name]").
 */

const ANSWERS = ["Doha", "Jane Smith", "Paris Saint-Germain", "Rep. Okafor", "Guinea-Bissau"];
const RIVALS = ["Riyadh", "John Doe", "Ann Lee", "Istanbul"];
const COMMITTED = [
  (a: string) => a,
  (a: string) => `**${a}**`,
  (a: string) => `${a}.`,
  (a: string) => `My pick: ${a}.`,
  (a: string) => `Answer: ${a}`,
];
const UNMARKED = [
  (a: string) => `Based on the evidence, the most likely winner is ${a}.`,
  (a: string) => `${a} is my answer.`,
  (a: string) => `The winner will most likely be ${a}.`,
];
const ABOUT_RIVALS = [
  (x: string, y: string) => `Other candidates include ${x} and ${y}.`,
  (x: string, y: string) => `${x} and ${y} are also possible.`,
  (x: string) => `${x} is the main rival.`,
  (x: string, y: string) => `Alternatives worth watching: ${x} and ${y}.`,
  (x: string, y: string) => `${x} and ${y} trail.`,
];

const rivals = fc.uniqueArray(fc.constantFrom(...RIVALS), { minLength: 2, maxLength: 2 });

describe("a written answer followed by its rivals", () => {
  it("is the committed answer", async () => {
    await fc.assert(
      fc.property(
        fc.constantFrom(...ANSWERS),
        fc.constantFrom(...COMMITTED),
        fc.constantFrom(...ABOUT_RIVALS),
        rivals,
        (answer, committed, about, [x, y]) => {
          const reply = `${committed(answer)}\n\n${about(x as string, y as string)}`;
          expect(readAnswer("free_response", reply, null).answer).toEqual({
            type: "free_response",
            text: answer,
          });
        },
      ),
      { numRuns: 500 },
    );
  });

  it("is never the rivals' paragraph", async () => {
    await fc.assert(
      fc.property(
        fc.constantFrom(...ANSWERS),
        fc.constantFrom(...UNMARKED),
        fc.constantFrom(...ABOUT_RIVALS),
        rivals,
        (answer, unmarked, about, [x, y]) => {
          const last = about(x as string, y as string);
          const { answer: read } = readAnswer(
            "free_response",
            `${unmarked(answer)}\n\n${last}`,
            null,
          );
          expect(
            read === null || (read.type === "free_response" && read.text.includes(answer)),
          ).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("a written reply without an answer", () => {
  it.each([
    "I'm not going to guess.",
    "I'd rather not speculate on this.",
    "I don't know.",
    "Hard to say.",
    "Answer: [city name]",
    "Answer: <city>",
    "Answer: {answer}",
    "Answer: ...",
  ])("%j has none", (reply) => {
    expect(readAnswer("free_response", reply, null).answer).toBeNull();
  });

  it("keeps an answer written in brackets", () => {
    expect(readAnswer("free_response", "Answer: [Doha]", null).answer).toEqual({
      type: "free_response",
      text: "[Doha]",
    });
  });
});
