import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ANSWER_TYPES, extractAnswer, type OptionMap } from "../../src/forecast/index.js";
import { longOptionText, replyAbout } from "./generators/option-texts.js";
import { countWork } from "./support/work-counter.js";

/*
 * Reading an answer costs work linear in the reply and the option texts, with a small
 * constant. Work is counted, not timed: the characters the string and regular-expression
 * built-ins examine (support/work-counter.ts), which no machine load changes. Before figures'
 * checks were gated by a one-pass index of the words they look for, a binary reply examined
 * about 180 characters per character of reply; quadratic reading (a check over the rest of the
 * reply for every figure) would examine thousands per character on the longer replies here.
 */
const WORK_PER_CHARACTER = 150;
// Generated replies repeat one phrasing throughout ("probability 3 in 10 …" costs ~152 per
// character, flat with length): the linear bound for them leaves room for such shapes.
const GENERATED_WORK_PER_CHARACTER = 200;
const FIXED_WORK = 20_000;

// What replies are made of, the shapes that cost readers most: figures of every kind, the
// words the figures' checks look for, option names, labels, tags, JSON and line breaks.
const FRAGMENTS = [
  "62%",
  "0.35",
  "3 in 10",
  "1,250",
  "$3.2bn",
  "2.5e9",
  "30-40%",
  "15–20%",
  "±3",
  "2027",
  "chance",
  "probability",
  "odds",
  "likely",
  "not",
  "isn't",
  "too high",
  "confidence",
  "estimate",
  "I'd put it at",
  "from 30% to 35%",
  "revise to",
  "leaning towards",
  "one in four",
  "3:1 against",
  "evens",
  "on NO",
  "YES",
  "Labour",
  "Reform UK",
  "the field",
  "Probability:",
  "Final answer:",
  "Mean:",
  "SD:",
  "5th:",
  "<answer>",
  "</answer>",
  '{"probability": 0.4}',
  "{",
  "}",
  "**",
  "|",
  ".",
  ",",
  ";",
  "\n",
  "\n\n",
  "the market",
  "historically",
  "because",
  "if",
];

const reply = (minLength: number, maxLength: number) =>
  fc.array(fc.constantFrom(...FRAGMENTS), { minLength: 1, maxLength: 40 }).chain((pattern) =>
    fc.integer({ min: minLength, max: maxLength }).map((length) => {
      const unit = `${pattern.join(" ")} `;
      return unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
    }),
  );

const OPTIONS: OptionMap = { A: "Labour", B: "Reform UK", C: "Conservative", D: "Someone else" };

function workOf(text: string, options: OptionMap | null): number {
  return Math.max(
    ...ANSWER_TYPES.map((type) => countWork(() => extractAnswer(type, text, options))),
  );
}

function optionLength(options: OptionMap): number {
  return Object.values(options).reduce((total, text) => total + text.length, 0);
}

describe("answer extraction does work linear in reply and option length", () => {
  it("examines at most a fixed number of characters per character of reply, for every type", async () => {
    await fc.assert(
      fc.property(reply(1_000, 40_000), (text) => {
        const work = workOf(text, OPTIONS);
        const bound =
          GENERATED_WORK_PER_CHARACTER * (text.length + optionLength(OPTIONS)) + FIXED_WORK;
        expect(work).toBeLessThan(bound);
      }),
      { numRuns: 12, endOnFailure: true },
    );
  });

  it("does four times the work on a reply four times as long, not sixteen", async () => {
    await fc.assert(
      fc.property(reply(2_000, 6_000), (text) => {
        const once = workOf(text, OPTIONS);
        const four = workOf(`${text}\n${text}\n${text}\n${text}`, OPTIONS);
        expect(four).toBeLessThan(5 * once + FIXED_WORK);
      }),
      { numRuns: 10, endOnFailure: true },
    );
  });

  it("reads a 100 kB reply of thousands of numbers with linear work, of every type", () => {
    const numbers = Array.from({ length: 25_000 }, (_, index) => `${index % 97}.${index % 10}%`)
      .join(" ")
      .slice(0, 100_000);
    const work = workOf(numbers, OPTIONS);
    expect(work).toBeLessThan(WORK_PER_CHARACTER * numbers.length);
  });

  it("grows with long, adversarial option texts no faster than their length", async () => {
    await fc.assert(
      fc.property(
        fc.array(longOptionText(100, 2_000), { minLength: 2, maxLength: 6 }),
        fc.integer({ min: 500, max: 4_000 }),
        (texts, characters) => {
          const options = Object.fromEntries(
            texts.map((text, index) => [String.fromCharCode(65 + index), text]),
          );
          const text = replyAbout(texts, characters);
          const work = countWork(() => extractAnswer("multiple_choice", text, options));
          expect(work).toBeLessThan(
            WORK_PER_CHARACTER * (text.length + optionLength(options)) + FIXED_WORK,
          );
        },
      ),
      { numRuns: 15, endOnFailure: true },
    );
  });
});
