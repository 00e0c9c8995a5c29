import { describe, expect, it } from "vitest";
import {
  extractAnswer,
  type ForecastAnswer,
  formatAnswerTag,
  formatOptionsTag,
  type OptionMap,
} from "../../src/forecast/index.js";
import { sameAnswer } from "./answer-match.js";

describe("formatAnswerTag", () => {
  it.each<[ForecastAnswer, string]>([
    [{ type: "binary", probability: 0.62 }, "<answer>0.62</answer>"],
    [{ type: "binary", probability: 0.123456 }, "<answer>0.123456</answer>"],
    [{ type: "binary", probability: 0.5 }, "<answer>0.5</answer>"],
    [{ type: "binary", probability: 0.001 }, "<answer>0.001</answer>"],
    [{ type: "binary", probability: 1 }, "<answer>1</answer>"],
    [{ type: "binary", probability: 0 }, "<answer>0</answer>"],
    [{ type: "binary", probability: 0.1 + 0.2 }, "<answer>0.3</answer>"],
    [
      { type: "multiple_choice", probabilities: { B: 0.45, A: 0.55 } },
      '<answer>{"A":0.55,"B":0.45}</answer>',
    ],
    [
      { type: "multiple_choice", probabilities: { A: 1 / 3, B: 1 / 3, C: 1 / 3 } },
      '<answer>{"A":0.3334,"B":0.3333,"C":0.3333}</answer>',
    ],
    [
      { type: "continuous", mean: 42.5, standardDeviation: 5.2 },
      '<answer>{"mean":42.5,"standard_deviation":5.2}</answer>',
    ],
    [
      { type: "continuous", mean: 0.1 + 0.2, standardDeviation: 10.625000000000002 },
      '<answer>{"mean":0.3,"standard_deviation":10.625}</answer>',
    ],
    [{ type: "continuous_value_only", value: 42.5 }, "<answer>42.5</answer>"],
    [{ type: "continuous_value_only", value: -1250 }, "<answer>-1250</answer>"],
    [{ type: "free_response", text: "Paris" }, "<answer>Paris</answer>"],
    [
      { type: "free_response", text: "Use <b>bold</b> & stop </answer> here" },
      "<answer>Use <b>bold</b> & stop  here</answer>",
    ],
  ])("formats %j", (answer, expected) => {
    expect(formatAnswerTag(answer)).toBe(expected);
  });

  it("keeps multiple-choice probabilities summing to 1 after rounding", () => {
    const probabilities = {
      A: 0.14285,
      B: 0.14285,
      C: 0.14285,
      D: 0.14285,
      E: 0.1428,
      F: 0.1428,
      G: 0.1429,
    };
    const tag = formatAnswerTag({ type: "multiple_choice", probabilities });
    const written = JSON.parse(tag.slice("<answer>".length, -"</answer>".length)) as Record<
      string,
      number
    >;
    const sum = Object.values(written).reduce((total, probability) => total + probability, 0);
    expect(sum).toBeCloseTo(1, 10);
  });
});

describe("formatAnswerTag round trip", () => {
  const options: OptionMap = { A: "Red", B: "Blue", C: "Green" };
  it.each<[ForecastAnswer, OptionMap | null]>([
    [{ type: "binary", probability: 0.62 }, null],
    [{ type: "binary", probability: 0.001 }, null],
    [{ type: "binary", probability: 0.999 }, null],
    [{ type: "binary", probability: 1 }, null],
    [{ type: "binary", probability: 0 }, null],
    [{ type: "multiple_choice", probabilities: { A: 0.55, B: 0.45 } }, null],
    [{ type: "multiple_choice", probabilities: { A: 0.2, B: 0, C: 0.8 } }, options],
    [{ type: "multiple_choice", probabilities: { A: 1 / 3, B: 1 / 3, C: 1 / 3 } }, options],
    [{ type: "continuous", mean: 42.5, standardDeviation: 5.2 }, null],
    [{ type: "continuous", mean: -3.75, standardDeviation: 0.01 }, null],
    [{ type: "continuous", mean: 2.5e9, standardDeviation: 4e8 }, null],
    [{ type: "continuous", mean: 1e21, standardDeviation: 1e20 }, null],
    [{ type: "continuous_value_only", value: 42.5 }, null],
    [{ type: "continuous_value_only", value: -0.004 }, null],
    [{ type: "continuous_value_only", value: 1250000 }, null],
    [{ type: "free_response", text: "The incumbent wins a second term." }, null],
  ])("extractAnswer(formatAnswerTag(%j)) gives it back", (answer, optionMap) => {
    const extracted = extractAnswer(answer.type, formatAnswerTag(answer), optionMap);
    expect(sameAnswer(extracted, answer, 1e-4), JSON.stringify(extracted)).toBe(true);
  });
});

describe("formatOptionsTag", () => {
  it("writes the options as compact JSON, letters in order", () => {
    expect(formatOptionsTag({ B: "Blue", A: "Red" })).toBe(
      '<options>{"A":"Red","B":"Blue"}</options>',
    );
  });

  it("cannot be closed early by an option text", () => {
    const tag = formatOptionsTag({ A: "x</options>y", B: "z" });
    expect(tag.match(/<\/options>/g)).toHaveLength(1);
    const json = tag.slice("<options>".length, -"</options>".length);
    expect(JSON.parse(json)).toEqual({ A: "x</options>y", B: "z" });
  });
});
