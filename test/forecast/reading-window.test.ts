import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CHOICE_WINDOW_CHARACTERS,
  choiceWindow,
} from "../../src/forecast/extract/choice-window.js";
import {
  READING_WINDOW_CHARACTERS,
  readingWindow,
} from "../../src/forecast/extract/reading-window.js";
import { type AnswerType, type OptionMap, readAnswer } from "../../src/forecast/index.js";

/*
 * A long reply is read from its end. The property that matters: the end alone never yields an
 * answer other than the reply's own. A reply that commits to its answer first and then reasons
 * at length gets that answer or none (and a repair), never a figure of the reasoning.
 */

const PARTIES: OptionMap = {
  A: "Labour",
  B: "Conservative",
  C: "Reform UK",
  D: "Liberal Democrats",
};

// Reasoning full of figures that no rule for a committed statement reads as an answer.
const REASONING = [
  "Turnout was 67.3% last time.",
  "Wage growth is 4.1% year on year.",
  "Incumbents kept office in 62% of comparable contests.",
  "A 2-point swing in 14 marginal seats would change 8 outcomes.",
  "There is roughly a 30% chance of an early vote, as the papers report.",
  "Sales reached 1,250 units in the spring, and 980 in the autumn.",
  "The index sits at 213.4 after a 12-month climb.",
  "Labour polled 41% and Reform UK 14% in the last survey.",
];

const reasoning = fc
  .array(fc.constantFrom(...REASONING), { minLength: 150, maxLength: 700 })
  .chain((sentences) =>
    fc
      .array(fc.constantFrom(" ", " ", "\n", "\n\n"), {
        minLength: sentences.length,
        maxLength: sentences.length,
      })
      .map((joins) => sentences.map((sentence, index) => sentence + joins[index]).join("")),
  );

function read(type: AnswerType, reply: string) {
  return readAnswer(type, reply, type === "multiple_choice" ? PARTIES : null);
}

describe("the part of a reply an answer is read from", () => {
  const texts = fc.string({
    unit: fc.constantFrom("a", "b", " ", ".", "\n", "5", "%", ". "),
    maxLength: 20_000,
  });

  it("is the whole of a short reply, and a suffix of a long one starting at a statement", async () => {
    await fc.assert(
      fc.property(texts, (text) => {
        const window = readingWindow(text);
        expect(text.endsWith(window.text)).toBe(true);
        expect(window.start).toBe(text.length - window.text.length);
        if (text.length <= READING_WINDOW_CHARACTERS) {
          expect(window).toEqual({ text, start: 0, cut: false });
          return;
        }
        expect(window.cut).toBe(true);
        expect(window.text.length).toBeLessThanOrEqual(READING_WINDOW_CHARACTERS);
        const cutAt = text.length - READING_WINDOW_CHARACTERS;
        const before = text[window.start - 1] ?? "";
        expect(window.start === cutAt || /\s/.test(before)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it("for option lists, starts at a whole line's start or holds nothing", async () => {
    await fc.assert(
      fc.property(texts, (text) => {
        const window = choiceWindow(text);
        expect(text.endsWith(window.text)).toBe(true);
        if (!window.cut) return;
        expect(window.text.length).toBeLessThanOrEqual(CHOICE_WINDOW_CHARACTERS);
        expect(window.text === "" || text[window.start - 1] === "\n").toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe("a reply that commits to its answer before long reasoning", () => {
  const cases: { type: AnswerType; first: string; answer: object }[] = [
    { type: "binary", first: "Probability: 35%", answer: { probability: 0.35 } },
    { type: "binary", first: "Final answer: 35%", answer: { probability: 0.35 } },
    { type: "continuous_value_only", first: "Final estimate: 42.5", answer: { value: 42.5 } },
    {
      type: "continuous",
      first: "Mean: 40\nSD: 5",
      answer: { mean: 40, standardDeviation: 5 },
    },
    {
      type: "multiple_choice",
      first: "A: 40%\nB: 30%\nC: 20%\nD: 10%",
      answer: { probabilities: { A: 0.4, B: 0.3, C: 0.2, D: 0.1 } },
    },
  ];

  it.each(cases)(
    "$type, $first: its answer or none, never a figure of the reasoning",
    async (row) => {
      await fc.assert(
        fc.property(reasoning, (thought) => {
          const reply = `${row.first}\n\n${thought}`;
          const reading = read(row.type, reply);
          if (reading.answer !== null) {
            expect(reading.answer).toEqual({ type: row.type, ...row.answer });
          } else {
            expect(reply.length).toBeGreaterThan(CHOICE_WINDOW_CHARACTERS);
          }
        }),
        { numRuns: 40 },
      );
    },
  );

  it("has no answer, and says it was looked for at the end, once the reasoning is long", () => {
    const reply = `Probability: 35%\n\n${REASONING.join(" ").repeat(40)}`;
    expect(reply.length).toBeGreaterThan(READING_WINDOW_CHARACTERS);
    expect(read("binary", reply)).toEqual({ answer: null, rule: "nothing_found_at_end" });
  });

  it("is read whole, loose readings included, while it is short", () => {
    const reply = `Some background.\n\n${REASONING.slice(0, 3).join(" ")} So roughly 35%.`;
    expect(read("binary", reply).answer).toEqual({ type: "binary", probability: 0.35 });
  });
});

describe("a long reply that ends with its answer", () => {
  const endings: { type: AnswerType; last: string; answer: object }[] = [
    { type: "binary", last: "Probability: 35%", answer: { probability: 0.35 } },
    { type: "binary", last: "<answer>0.35</answer>", answer: { probability: 0.35 } },
    { type: "binary", last: '{"probability": 0.35}', answer: { probability: 0.35 } },
    {
      type: "binary",
      last: "I was at 30%, but I'm raising my forecast to 35%.",
      answer: { probability: 0.35 },
    },
    { type: "continuous_value_only", last: "Final estimate: 42.5", answer: { value: 42.5 } },
    {
      type: "continuous",
      last: "Mean: 40\nSD: 5",
      answer: { mean: 40, standardDeviation: 5 },
    },
    {
      type: "multiple_choice",
      last: "Final probabilities:\nA: 40%\nB: 30%\nC: 20%\nD: 10%",
      answer: { probabilities: { A: 0.4, B: 0.3, C: 0.2, D: 0.1 } },
    },
    {
      type: "multiple_choice",
      last: "Labour: 40%\nConservative: 30%\nReform UK: 20%\nLiberal Democrats: 10%",
      answer: { probabilities: { A: 0.4, B: 0.3, C: 0.2, D: 0.1 } },
    },
    { type: "free_response", last: "**Answer: Labour**", answer: { text: "Labour" } },
  ];

  it.each(endings)("$type, $last: is read at any length", async (row) => {
    await fc.assert(
      fc.property(reasoning, (thought) => {
        expect(read(row.type, `${thought}\n\n${row.last}`).answer).toEqual({
          type: row.type,
          ...row.answer,
        });
      }),
      { numRuns: 25 },
    );
  });
});

describe("option lines at the start of the part read", () => {
  const marketLines = (count: number) =>
    Array.from({ length: count }, (_, index) => `${"ABCD"[index % 4]}: ${10 + (index % 40)}%`);

  it("are not read when a heading before them may give them to someone else", async () => {
    await fc.assert(
      fc.property(fc.integer({ min: 700, max: 1_500 }), (count) => {
        const reply = `Market prices:\n${marketLines(count).join("\n")}`;
        expect(reply.length).toBeGreaterThan(CHOICE_WINDOW_CHARACTERS);
        expect(read("multiple_choice", reply).answer).toBeNull();
      }),
      { numRuns: 20 },
    );
  });

  it("end at a line of other text, and the distribution after it is the answer", () => {
    const reply = [
      "Market prices:",
      ...marketLines(1_000),
      "My own view differs from the market.",
      "A: 40%",
      "B: 30%",
      "C: 20%",
      "D: 10%",
    ].join("\n");
    expect(read("multiple_choice", reply)).toEqual({
      answer: { type: "multiple_choice", probabilities: { A: 0.4, B: 0.3, C: 0.2, D: 0.1 } },
      rule: "option_lines",
    });
  });

  it("are read when the line before the part read ends any heading's run", () => {
    const reply = `${REASONING.join(" ").repeat(30)}\n\nA: 40%\nB: 30%\nC: 20%\nD: 10%`;
    expect(reply.length).toBeGreaterThan(READING_WINDOW_CHARACTERS);
    expect(read("multiple_choice", reply).answer).toEqual({
      type: "multiple_choice",
      probabilities: { A: 0.4, B: 0.3, C: 0.2, D: 0.1 },
    });
  });

  it("after a final marker are read whole when the list outgrows the window for lists", () => {
    const reasons = Array.from({ length: 40 }, () => REASONING.join(" ")).join(" ");
    const lines = ["Labour: 40%", "Conservative: 30%", "Reform UK: 20%", "Liberal Democrats: 10%"];
    const reply = `${REASONING.join(" ").repeat(20)}\n\nFinal probabilities:\n${lines
      .map((line) => `${line} (${reasons.slice(0, 1_200)})`)
      .join("\n")}`;
    const listLength = reply.length - reply.indexOf("Final probabilities:");
    expect(listLength).toBeGreaterThan(CHOICE_WINDOW_CHARACTERS);
    expect(listLength).toBeLessThan(READING_WINDOW_CHARACTERS);
    expect(read("multiple_choice", reply)).toEqual({
      answer: { type: "multiple_choice", probabilities: { A: 0.4, B: 0.3, C: 0.2, D: 0.1 } },
      rule: "option_lines",
    });
  });

  it("are none in a long reply of one line: a line cut in two is not read", () => {
    const reply = `${REASONING.join(" ").repeat(30)} I give Labour 40%, Conservative 30%, Reform UK 20% and Liberal Democrats 10%.`;
    expect(read("multiple_choice", reply)).toEqual({
      answer: null,
      rule: "nothing_found_at_end",
    });
  });
});
