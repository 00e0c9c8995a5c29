import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readAnswer } from "../../src/forecast/extract/index.js";
import type { OptionMap } from "../../src/forecast/index.js";

/*
 * Two options, one side stated: a ratio in favour of a side ("60/40 in favour of the
 * Democrats", "65-35 Republicans") or one side's chance ("Democrats win with probability
 * 0.57", "70% for Labour"). The other side is the rest. Whatever could mean something else (the
 * side loses, both sides in one sentence, two statements, a smaller share first) is no answer.
 */
interface Pair {
  options: OptionMap;
  /** Names a reply may call each option by. */
  names: Record<string, string[]>;
}

const PAIRS: Pair[] = [
  {
    options: { A: "Democratic Party", B: "Republican Party" },
    names: { A: ["Democrats", "the Democrats", "Dems"], B: ["Republicans", "the GOP", "GOP"] },
  },
  {
    options: { A: "Labour", B: "Conservative" },
    names: { A: ["Labour"], B: ["the Conservatives", "the Tories", "Tories"] },
  },
  {
    options: { A: "Kamala Harris", B: "JD Vance" },
    names: { A: ["Harris", "Kamala Harris"], B: ["Vance", "JD Vance"] },
  },
];

// Reasoning before the final paragraph, with figures of its own.
const REASONING = fc.constantFrom(
  "The incumbent's party lost seats in 18 of the last 21 midterms; approval sits at 43%.",
  "Polling averages moved from 41% to 37% over the quarter, with a margin of error of 3 points.",
  "Turnout was 67.3% last time, and 35 seats are rated toss-ups.",
  "",
);

const side = fc.record({
  pair: fc.constantFrom(...PAIRS),
  letter: fc.constantFrom("A", "B"),
  nameIndex: fc.nat(),
  reasoning: REASONING,
});

function nameOf(pair: Pair, letter: string, index: number): string {
  const names = pair.names[letter] ?? [];
  return names[index % names.length] ?? "";
}

function other(letter: string): string {
  return letter === "A" ? "B" : "A";
}

function reply(reasoning: string, final: string): string {
  return reasoning === "" ? final : `${reasoning}\n\n${final}`;
}

function expectSplit(text: string, pair: Pair, letter: string, share: number): void {
  const reading = readAnswer("multiple_choice", text, pair.options);
  expect(reading.rule, text).toBe("one_side");
  const answer = reading.answer;
  if (answer?.type !== "multiple_choice") throw new Error(`no answer read from: ${text}`);
  expect(answer.probabilities[letter]).toBeCloseTo(share, 6);
  expect(answer.probabilities[other(letter)]).toBeCloseTo(1 - share, 6);
}

describe("two options, one side stated", () => {
  it("reads a ratio in favour of a side, in any of its written forms", async () => {
    const form = fc.constantFrom(
      (a: number, b: number, name: string) => `I'd call it ${a}/${b} in favour of ${name}.`,
      (a: number, b: number, name: string) => `Final: ${a}-${b} ${name}.`,
      (a: number, b: number, name: string) => `${a}:${b} for ${name}.`,
      (a: number, b: number, name: string) => `Overall, ${a} to ${b} in favor of ${name}.`,
      (a: number, b: number, name: string) => `My split is ${a}–${b}, favouring ${name}.`,
    );
    await fc.assert(
      fc.property(side, fc.integer({ min: 51, max: 99 }), form, (given, share, write) => {
        const name = nameOf(given.pair, given.letter, given.nameIndex);
        const text = reply(given.reasoning, write(share, 100 - share, name));
        expectSplit(text, given.pair, given.letter, share / 100);
      }),
    );
  });

  it("reads one side's chance as that side's, and the rest as the other's", async () => {
    const form = fc.constantFrom(
      (p: number, name: string) => `${name} win with probability ${(p / 100).toFixed(2)}.`,
      (p: number, name: string) => `I give ${name} a ${p}% chance of winning.`,
      (p: number, name: string) => `${p}% for ${name}.`,
      (p: number, name: string) => `${name} are favoured, at ${p}%.`,
    );
    await fc.assert(
      fc.property(side, fc.integer({ min: 1, max: 99 }), form, (given, share, write) => {
        const name = nameOf(given.pair, given.letter, given.nameIndex);
        const text = reply(given.reasoning, write(share, name));
        expectSplit(text, given.pair, given.letter, share / 100);
      }),
    );
  });

  it("reads no side's split where the statement could mean something else", async () => {
    const ambiguous = fc.constantFrom(
      (p: number, name: string) => `${name} lose with probability ${(p / 100).toFixed(2)}.`,
      (p: number, name: string) => `If ${name} hold the seat, ${p}% looks right.`,
      (p: number, name: string, rival: string) => `${name} versus ${rival}: ${p}% chance.`,
      (p: number, name: string) => `${name} win with probability ${p / 100}. Or maybe ${p / 200}.`,
      (p: number, name: string) => `I'd call it ${100 - p}/${p} in favour of ${name}.`,
    );
    await fc.assert(
      fc.property(side, fc.integer({ min: 51, max: 99 }), ambiguous, (given, share, write) => {
        const name = nameOf(given.pair, given.letter, given.nameIndex);
        const rival = nameOf(given.pair, other(given.letter), given.nameIndex);
        const text = reply(given.reasoning, write(share, name, rival));
        // The other readings may still read the line ("Republicans: 99%"): this rule does not.
        expect(readAnswer("multiple_choice", text, given.pair.options).rule, text).not.toBe(
          "one_side",
        );
      }),
    );
  });

  it("takes no quoted or past figure for the side's chance", async () => {
    const quoted = fc.constantFrom(
      (p: number, name: string) => `The market gives ${name} a ${p}% chance.`,
      (p: number, name: string) => `${name} won ${p}% of the vote last time.`,
    );
    await fc.assert(
      fc.property(side, fc.integer({ min: 1, max: 99 }), quoted, (given, share, write) => {
        const name = nameOf(given.pair, given.letter, given.nameIndex);
        const text = reply(given.reasoning, write(share, name));
        expect(readAnswer("multiple_choice", text, given.pair.options).rule).not.toBe("one_side");
      }),
    );
  });

  it("leaves questions of three or more options to their own readings", async () => {
    await fc.assert(
      fc.property(fc.integer({ min: 51, max: 99 }), (share) => {
        const options = { A: "Labour", B: "Conservative", C: "Reform UK" };
        const text = `I'd call it ${share}/${100 - share} in favour of Labour.`;
        expect(readAnswer("multiple_choice", text, options).rule).not.toBe("one_side");
      }),
    );
  });
});
