import { describe, expect, it } from "vitest";
import { parseOptions } from "../../src/forecast/index.js";

describe("parseOptions", () => {
  it.each([
    ["A) Yes\nB) No", { A: "Yes", B: "No" }],
    ["A. Yes\nB. No\nC. Too early to tell", { A: "Yes", B: "No", C: "Too early to tell" }],
    ["(A) Yes\n(B) No", { A: "Yes", B: "No" }],
    ["A: Yes\nB: No", { A: "Yes", B: "No" }],
    ["- A) Yes\n- B) No", { A: "Yes", B: "No" }],
    ["Options: A) x, B) y, C) z", { A: "x", B: "y", C: "z" }],
    [
      "Which party wins? (A) Labour (B) Conservative (C) Other.",
      { A: "Labour", B: "Conservative", C: "Other" },
    ],
    ["Options: ['Red', 'Blue', 'Green']", { A: "Red", B: "Blue", C: "Green" }],
    [
      'The options are: ["0 or 1", "2 or 3", "4 or more"]',
      { A: "0 or 1", B: "2 or 3", C: "4 or more" },
    ],
    ["Options:\n- Red\n- Blue\n- Green", { A: "Red", B: "Blue", C: "Green" }],
    ["Choices:\n\n1. Spring\n2. Summer\n\nPick one.", { A: "Spring", B: "Summer" }],
    ["Options: Red, Blue or Green", { A: "Red", B: "Blue", C: "Green" }],
  ])("parses %j", (text, expected) => {
    expect(parseOptions(text)).toEqual(expected);
  });

  it("reads the options of a full question", () => {
    const question = `Which company will have the largest market capitalization on 31 December 2025?

A) Apple
B) Microsoft
C) Nvidia
D) Another company

Resolution: per companiesmarketcap.com at market close.`;
    expect(parseOptions(question)).toEqual({
      A: "Apple",
      B: "Microsoft",
      C: "Nvidia",
      D: "Another company",
    });
  });

  it.each([
    "Will the bill pass before July?",
    "A) Only one option",
    "Options: ['Only one']",
    "I think U.S. policy will matter.\nB. is unrelated",
    "",
  ])("returns null for %j", (text) => {
    expect(parseOptions(text)).toBeNull();
  });
});
