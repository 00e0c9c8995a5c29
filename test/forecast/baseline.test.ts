import { describe, expect, it } from "vitest";
import {
  ANSWER_TYPES,
  baselineForecast,
  baselineProse,
  extractAnswer,
  type OptionMap,
  questionText,
} from "../../src/forecast/index.js";
import { sameAnswer } from "./answer-match.js";

const COLOURS: OptionMap = { A: "Red", B: "Blue", C: "Green" };

describe("baselineForecast", () => {
  it("binary is a coin flip", () => {
    expect(baselineForecast("binary", "Will it rain?", null)).toEqual({
      type: "binary",
      probability: 0.5,
    });
  });

  it("multiple choice is uniform over the known options", () => {
    expect(baselineForecast("multiple_choice", "Which colour?", COLOURS)).toEqual({
      type: "multiple_choice",
      probabilities: { A: 1 / 3, B: 1 / 3, C: 1 / 3 },
    });
  });

  it("multiple choice without parsed options is uniform over A–D", () => {
    expect(baselineForecast("multiple_choice", "Which one?", null)).toEqual({
      type: "multiple_choice",
      probabilities: { A: 0.25, B: 0.25, C: 0.25, D: 0.25 },
    });
  });

  it("multiple choice always covers at least A and B", () => {
    expect(baselineForecast("multiple_choice", "Which one?", { A: "Only" })).toEqual({
      type: "multiple_choice",
      probabilities: { A: 0.5, B: 0.5 },
    });
  });

  it("continuous centres on the median figure of the question, ignoring years", () => {
    const answer = baselineForecast(
      "continuous",
      "Will Brent crude trade between $70 and $90 in 2026, up from $80 in 2025?",
      null,
    );
    expect(answer).toEqual({ type: "continuous", mean: 80, standardDeviation: 20 });
  });

  it("continuous keeps years when they are the only figures", () => {
    expect(
      baselineForecast("continuous", "Between 2030 and 2040, when will it happen?", null),
    ).toEqual({
      type: "continuous",
      mean: 2035,
      standardDeviation: 508.75,
    });
  });

  it("continuous ignores calendar dates", () => {
    const answer = baselineForecast(
      "continuous",
      "How many cases by 2025-06-30? Last count: 1,200.",
      null,
    );
    expect(answer).toEqual({ type: "continuous", mean: 1200, standardDeviation: 300 });
  });

  it("continuous without figures is the standard normal", () => {
    expect(baselineForecast("continuous", "How tall will the tower be?", null)).toEqual({
      type: "continuous",
      mean: 0,
      standardDeviation: 1,
    });
  });

  it("continuous has a spread of at least 1", () => {
    const answer = baselineForecast("continuous", "Will inflation be 0.5% or 1.5%?", null);
    expect(answer).toEqual({ type: "continuous", mean: 1, standardDeviation: 1 });
  });

  it("value only is the same central figure", () => {
    expect(
      baselineForecast("continuous_value_only", "How many? Last year 40, before that 60.", null),
    ).toEqual({
      type: "continuous_value_only",
      value: 50,
    });
  });

  it("free response says that nothing beyond the base rate is known", () => {
    const answer = baselineForecast("free_response", "Who will win?", null);
    expect(answer.type).toBe("free_response");
    expect(answer.type === "free_response" && answer.text).toMatch(/base rate/);
  });
});

describe("baselineProse", () => {
  const questions = [
    "Will the bill pass before July?",
    "Which colour wins? A) Red B) Blue C) Green",
    "How many units will ship in Q3, after 1,250 in Q2 and -30 returns?",
    "What will the price be?",
  ];

  for (const type of ANSWER_TYPES) {
    for (const question of questions) {
      it(`${type}: extracting the prose gives the forecast back (${question})`, () => {
        const options = type === "multiple_choice" ? COLOURS : null;
        const answer = baselineForecast(type, question, options);
        const prose = baselineProse(answer);
        expect(sameAnswer(extractAnswer(type, prose, options), answer, 1e-6), prose).toBe(true);
      });
    }
  }

  it("multiple choice without options reads back too", () => {
    const answer = baselineForecast("multiple_choice", "Which?", null);
    expect(
      sameAnswer(extractAnswer("multiple_choice", baselineProse(answer), null), answer, 1e-6),
    ).toBe(true);
  });

  it("states the binary answer as a labelled percentage", () => {
    expect(baselineProse({ type: "binary", probability: 0.5 })).toContain("Probability: 50%");
  });

  it("is one or two sentences before the figures", () => {
    const prose = baselineProse({ type: "continuous", mean: 80, standardDeviation: 20 });
    expect(prose.split("\n")[0]?.match(/[.!?](\s|$)/g)?.length ?? 0).toBeLessThanOrEqual(2);
  });
});

describe("questionText", () => {
  it("is the last user message", () => {
    expect(
      questionText([
        { role: "system", content: "You are a forecaster." },
        { role: "user", content: "Will it rain?" },
        { role: "assistant", content: "Probability: 40%" },
        { role: "user", content: "Will it snow?" },
      ]),
    ).toBe("Will it snow?");
  });

  it("skips trailing non-user messages", () => {
    expect(
      questionText([
        { role: "user", content: "Will it rain?" },
        { role: "assistant", content: "Thinking" },
      ]),
    ).toBe("Will it rain?");
  });

  it("is empty without a user message", () => {
    expect(questionText([{ role: "system", content: "Hi" }])).toBe("");
  });
});
