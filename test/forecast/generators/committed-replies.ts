import * as fc from "fast-check";
import type { AnswerType, ForecastAnswer, OptionMap } from "../../../src/forecast/index.js";
import { reasoning, wholePercent } from "./reasoning.js";

/*
 * Whole forecasting replies whose committed answer is known: reasoning full of figures, a
 * committed statement in one of many phrasings, and sometimes traps after it that are not
 * answers (others' figures, changes of the world, a comparison with the market). Also the long
 * reply: the answer first, then more reasoning than the reading window holds.
 */

export interface CommittedReply {
  type: AnswerType;
  reply: string;
  options: OptionMap | null;
  committed: ForecastAnswer;
}

const BINARY_STATEMENTS = [
  (p: number) => `Probability: ${p}%`,
  (p: number) => `Final answer: ${p}%`,
  (p: number) => `**Forecast: ${p}%**`,
  (p: number) => `I'd put this at ${p}%.`,
  (p: number) => `On balance, I estimate a ${p}% chance.`,
  (p: number) => `My forecast is ${(p / 100).toFixed(2)}.`,
  (p: number) => `Initially I thought ${p > 50 ? p - 10 : p + 10}%, but I'm revising to ${p}%.`,
  (p: number) => `Somewhere in the ${p - 1}–${p + 1}% range, leaning towards ${p}%.`,
  (p: number) => `${100 - p}% on NO, i.e. ${p}% on YES.`,
  (p: number) => `<answer>${(p / 100).toFixed(2)}</answer>`,
  (p: number) => `{"probability": ${(p / 100).toFixed(2)}}`,
  (p: number) => `Bottom line: ${p}%.`,
  (p: number) => `NO: ${100 - p}%, so YES: ${p}%.`,
  (p: number) => `Probability: ${p + 1}%. Actually, make that ${p}%.`,
  (p: number) => `I'm raising my forecast from ${p > 50 ? p - 5 : p + 5}% to ${p}%.`,
];
// Chances written in words or odds, with the probability each states.
const WORDED_CHANCES: [string, number][] = [
  ["one in four", 25],
  ["a one-in-three chance", 100 / 3],
  ["3:1 against", 25],
  ["evens", 50],
  ["2 to 1 on", 200 / 3],
  ["4 to 1 against", 20],
];
const WORDED_STATEMENTS = [
  (chance: string) => `I'd put it at ${chance}.`,
  (chance: string) => `Final answer: ${chance}.`,
];
const BINARY_TRAPS = [
  (q: number) => `For comparison, Polymarket trades at ${q}%.`,
  (q: number) => `The market moved from ${q}% to ${Math.min(99, q + 5)}% this week.`,
  (q: number) => `Historically about ${q}% of such bills pass.`,
  (q: number) => `If the committee schedules a vote, I'd raise this to ${q}%.`,
  (q: number) => `Metaculus: ${q}%.`,
  () => "",
];

const VALUE_STATEMENTS = [
  (v: number) => `Forecast: ${v.toLocaleString("en-US")}`,
  (v: number) => `Final estimate: ${v}`,
  (v: number) => `My best guess is ${v}.`,
  (v: number) => `Between ${v - 10} and ${v + 10}, call it ${v}.`,
  (v: number) => `Bottom line: ${v}`,
  (v: number) => `{"value": ${v}}`,
  (v: number) => `I'd revise my estimate to ${v}.`,
  (v: number) => `${v} as my central estimate.`,
];
const VALUE_TRAPS = [
  (w: number) => `Last year's figure was ${w}.`,
  (w: number) => `Analysts' point estimate is ${w}.`,
  (w: number) => `A recession could move my estimate to ${w}.`,
  (w: number) => `The consensus moved from ${w} to ${w + 3}.`,
  () => "",
];

const CONTINUOUS_STATEMENTS = [
  (m: number, s: number) => `Mean: ${m}\nSD: ${s}`,
  (m: number, s: number) => `Final answer: ${m} ± ${s}`,
  (m: number, s: number) => `My estimate: ${m}, give or take ${s} (one standard deviation).`,
  (m: number, s: number) => `{"mean": ${m}, "standard_deviation": ${s}}`,
  (m: number, s: number) =>
    `5th: ${m - 1.645 * s}, 25th: ${m - 0.674 * s}, 50th: ${m}, 75th: ${m + 0.674 * s}, 95th: ${m + 1.645 * s}`,
  (m: number, s: number) => `Median: ${m}, 90% CI: ${m - 1.645 * s}–${m + 1.645 * s}`,
];
const CONTINUOUS_TRAPS = [
  (w: number) => `Last year it was ${w} with a standard deviation of ${Math.max(1, w >> 3)}.`,
  (w: number) => `The Fed's central estimate is ${w}.`,
  () => "",
];

const OPTIONS: OptionMap = {
  A: "Google DeepMind",
  B: "OpenAI",
  C: "Anthropic",
  D: "Someone else",
};
const CHOICE_NAMES: Record<string, string[]> = {
  A: ["A", "Google DeepMind", "DeepMind"],
  B: ["B", "OpenAI"],
  C: ["C", "Anthropic"],
  D: ["D", "Someone else", "Other"],
};
const CHOICE_TRAPS = [
  "Market prices last month had OpenAI at 45%.",
  "Last year DeepMind won 50% of the benchmarks.",
  "",
];

const ANSWERS = ["Doha", "Jane Smith", "Paris Saint-Germain", "Guinea-Bissau"];
const WRITTEN_STATEMENTS = [
  (a: string) => `Answer: ${a}`,
  (a: string) => `**${a}**`,
  (a: string) => `Final answer: ${a}`,
  (a: string) => `My pick: ${a}.`,
];
const WRITTEN_TRAPS = ["Other candidates include Riyadh and Istanbul.", "Riyadh trails.", ""];

function compose(why: string, statement: string, trap: string): string {
  return [why, statement, trap].filter((part) => part !== "").join("\n\n");
}

const binary = fc
  .tuple(
    reasoning(),
    fc.constantFrom(...BINARY_STATEMENTS),
    fc.constantFrom(...BINARY_TRAPS),
    fc.integer({ min: 2, max: 98 }),
    wholePercent,
  )
  .map(
    ([why, statement, trap, p, q]): CommittedReply => ({
      type: "binary",
      reply: compose(why, statement(p), trap(q)),
      options: null,
      committed: { type: "binary", probability: p / 100 },
    }),
  );

const worded = fc
  .tuple(
    reasoning(),
    fc.constantFrom(...WORDED_STATEMENTS),
    fc.constantFrom(...WORDED_CHANCES),
    fc.constantFrom(...BINARY_TRAPS),
    wholePercent,
  )
  .map(
    ([why, statement, [chance, p], trap, q]): CommittedReply => ({
      type: "binary",
      reply: compose(why, statement(chance), trap(q)),
      options: null,
      committed: { type: "binary", probability: p / 100 },
    }),
  );

const value = fc
  .tuple(
    reasoning(),
    fc.constantFrom(...VALUE_STATEMENTS),
    fc.constantFrom(...VALUE_TRAPS),
    fc.integer({ min: 20, max: 90_000 }),
    fc.integer({ min: 20, max: 90_000 }),
  )
  .map(
    ([why, statement, trap, v, w]): CommittedReply => ({
      type: "continuous_value_only",
      reply: compose(why, statement(v), trap(w)),
      options: null,
      committed: { type: "continuous_value_only", value: v },
    }),
  );

const continuous = fc
  .tuple(
    reasoning(),
    fc.constantFrom(...CONTINUOUS_STATEMENTS),
    fc.constantFrom(...CONTINUOUS_TRAPS),
    fc.integer({ min: 50, max: 9000 }),
    fc.integer({ min: 2, max: 40 }),
    fc.integer({ min: 50, max: 9000 }),
  )
  .map(
    ([why, statement, trap, m, s, w]): CommittedReply => ({
      type: "continuous",
      reply: compose(why, statement(m, s), trap(w)),
      options: null,
      committed: { type: "continuous", mean: m, standardDeviation: s },
    }),
  );

const split = fc
  .tuple(
    fc.integer({ min: 5, max: 40 }),
    fc.integer({ min: 5, max: 40 }),
    fc.integer({ min: 1, max: 15 }),
  )
  .map(([a, b, d]) => ({ A: a, B: b, C: 100 - a - b - d, D: d }));

const choice = fc
  .tuple(
    reasoning(),
    split,
    fc.shuffledSubarray(["A", "B", "C", "D"], { minLength: 4, maxLength: 4 }),
    fc.array(fc.nat(2), { minLength: 4, maxLength: 4 }),
    fc.constantFrom("lines", "prose"),
    fc.constantFrom(...CHOICE_TRAPS),
  )
  .map(([why, shares, order, picks, shape, trap]): CommittedReply => {
    const parts = order.map((letter, index) => {
      const names = CHOICE_NAMES[letter] as string[];
      const name = names[(picks[index] ?? 0) % names.length] as string;
      return `${name}: ${shares[letter as keyof typeof shares]}%`;
    });
    const statement =
      shape === "lines" ? `My forecast:\n${parts.join("\n")}` : `I give ${parts.join(", ")}.`;
    return {
      type: "multiple_choice",
      reply: compose(why, statement.replaceAll(": ", shape === "lines" ? ": " : " "), trap),
      options: OPTIONS,
      committed: {
        type: "multiple_choice",
        probabilities: Object.fromEntries(
          Object.entries(shares).map(([letter, share]) => [letter, share / 100]),
        ),
      },
    };
  });

const written = fc
  .tuple(
    reasoning(),
    fc.constantFrom(...WRITTEN_STATEMENTS),
    fc.constantFrom(...ANSWERS),
    fc.constantFrom(...WRITTEN_TRAPS),
  )
  .map(
    ([why, statement, answer, trap]): CommittedReply => ({
      type: "free_response",
      reply: compose(why, statement(answer), trap),
      options: null,
      committed: { type: "free_response", text: answer },
    }),
  );

/** A reply of any type whose committed answer is known. */
export const committedReply: fc.Arbitrary<CommittedReply> = fc.oneof(
  binary,
  worded,
  value,
  continuous,
  choice,
  written,
);

/** `reply` stated first, then reasoning longer than the reading window. */
export function answerFirst(reply: CommittedReply, filler: string): CommittedReply {
  let tail = "";
  while (tail.length < 9000) tail += `${filler}\n\n`;
  return { ...reply, reply: `${reply.reply}\n\n${tail}` };
}
