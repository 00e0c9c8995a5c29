import { describe, expect, it } from "vitest";
import {
  ANSWER_TYPES,
  extractAnswer,
  guidanceFor,
  repairPrompt,
} from "../../src/forecast/index.js";

const OPTIONS = { A: "Red", B: "Blue", C: "Green" };

const SHAPES = {
  binary: "<answer>0.62</answer>",
  multiple_choice: '<answer>{"A": 0.55, "B": 0.45}</answer>',
  continuous: '<answer>{"mean": 42.5, "standard_deviation": 5.2}</answer>',
  continuous_value_only: "<answer>42.5</answer>",
  free_response: "<answer>text</answer>",
} as const;

describe("guidanceFor", () => {
  it.each(ANSWER_TYPES)("%s: asks for reasoning first and shows the exact tag shape", (type) => {
    const guidance = guidanceFor(type, null);
    expect(guidance).toContain(SHAPES[type]);
    expect(guidance.toLowerCase()).toMatch(/^reason/);
    expect(guidance.indexOf("Reason")).toBeLessThan(guidance.indexOf(SHAPES[type]));
  });

  it("binary asks for a probability between 0 and 1", () => {
    expect(guidanceFor("binary", null)).toMatch(/probability, between 0 and 1/);
  });

  it("continuous names both fields", () => {
    const guidance = guidanceFor("continuous", null);
    expect(guidance).toContain("mean");
    expect(guidance).toContain("standard_deviation");
  });

  it("multiple choice lists the known option letters and texts", () => {
    const guidance = guidanceFor("multiple_choice", OPTIONS);
    expect(guidance).toContain("A, B, C");
    expect(guidance).toContain("A: Red");
    expect(guidance).toContain("C: Green");
  });

  it("the example in each numeric guidance is itself a readable answer", () => {
    for (const type of ANSWER_TYPES.filter((candidate) => candidate !== "free_response")) {
      expect(extractAnswer(type, SHAPES[type], null)).not.toBeNull();
    }
  });

  it("the written answer's example, copied as is, is no answer", () => {
    expect(extractAnswer("free_response", SHAPES.free_response, null)).toBeNull();
  });
});

describe("repairPrompt", () => {
  it.each(ANSWER_TYPES)("%s: asks for only the final answer in the tag shape", (type) => {
    const prompt = repairPrompt(type, null);
    expect(prompt).toContain(SHAPES[type]);
    expect(prompt).toMatch(/only your final answer/);
    expect(prompt.length).toBeLessThan(600);
  });

  it("multiple choice names the option letters", () => {
    expect(repairPrompt("multiple_choice", OPTIONS)).toContain("A, B, C");
  });
});
