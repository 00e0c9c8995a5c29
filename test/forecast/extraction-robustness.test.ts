import { describe, expect, it } from "vitest";
import { ANSWER_TYPES, extractAnswer, type ForecastAnswer } from "../../src/forecast/index.js";

const PIECES = [
  "{",
  "}",
  '"A": ',
  "'mean': ",
  "<answer>",
  "</answer>",
  "<think>",
  "</think>",
  "Probability: ",
  "Percentile 10: ",
  "Percentile 90: ",
  "Option_B: ",
  "| A | ",
  "- C) ",
  "σ = ",
  "±",
  "*",
  "**",
  "%",
  "0.62",
  "62",
  "-5",
  "1,250",
  "$4.2k",
  "3 in 10",
  "between 30 and 50",
  "2025-06-30",
  " ",
  "\n",
  "\n\n",
  "yes",
  "no",
  "(",
  ")",
  ":",
  "NaN",
  "1e400",
  "Infinity",
];

/** A deterministic generator, so a failure can be reproduced. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

function isValid(answer: ForecastAnswer): boolean {
  switch (answer.type) {
    case "binary":
      return answer.probability >= 0 && answer.probability <= 1;
    case "multiple_choice": {
      const values = Object.values(answer.probabilities);
      const sum = values.reduce((total, probability) => total + probability, 0);
      return (
        Object.keys(answer.probabilities).every((letter) => /^[A-Z]$/.test(letter)) &&
        values.every((probability) => probability >= 0 && probability <= 1) &&
        Math.abs(sum - 1) < 1e-9
      );
    }
    case "continuous":
      return (
        Number.isFinite(answer.mean) &&
        answer.standardDeviation > 0 &&
        Number.isFinite(answer.standardDeviation)
      );
    case "continuous_value_only":
      return Number.isFinite(answer.value);
    case "free_response":
      return (
        answer.text.length > 0 && answer.text.length <= 2000 && answer.text === answer.text.trim()
      );
  }
}

const PARTIES = { A: "Labour", B: "Conservative", C: "Liberal Democrats", D: "Reform UK" };

describe("extractAnswer on arbitrary text", () => {
  it.each(ANSWER_TYPES)("%s: never throws and only returns valid answers", (type) => {
    const next = random(ANSWER_TYPES.indexOf(type) + 1);
    for (let round = 0; round < 400; round++) {
      const length = Math.floor(next() * 40);
      const reply = Array.from({ length }, () => PIECES[Math.floor(next() * PIECES.length)]).join(
        "",
      );
      const answer = extractAnswer(type, reply, null);
      if (answer !== null) {
        expect(answer.type).toBe(type);
        expect(isValid(answer), `${JSON.stringify(reply)} → ${JSON.stringify(answer)}`).toBe(true);
      }
    }
  });

  it.each([
    ["unclosed braces", "{".repeat(50_000)],
    ["nested braces", `${'{"a": '.repeat(5_000)}1${"}".repeat(5_000)}`],
    ["repeated labels", "Probability of the event that ".repeat(5_000)],
    ["digits", "1".repeat(100_000)],
    ["option lines", "A: B: C: ".repeat(10_000)],
    ["percentile labels", "Percentile 10 percentile 20 ".repeat(5_000)],
    ["whitespace", " ".repeat(200_000)],
    ["opening answer tags", "<answer>".repeat(20_000)],
    ["closing and opening answer tags", "</answer><answer>".repeat(20_000)],
    ["opening reasoning tags", "<think>".repeat(20_000)],
    ["table pipes", `A) ${"| 5 x ".repeat(20_000)}`],
    ["ranges", "between 1 and 2 ".repeat(20_000)],
    ["final markers", `${"Final: ".repeat(20_000)}20%`],
    ["names joined by and", `${"Labour and ".repeat(20_000)}40%`],
    ["names with figures", "Labour 5%, ".repeat(10_000)],
    ["decimal comma lists", "1,2,".repeat(30_000)],
    ["negations", `${"the chance it does not ".repeat(5_000)}at 85%`],
    ["ordinals after a percentile", "percentile the 5th is ".repeat(8_000)],
    ["reasons after an answer", `Answer: Spain${" - x".repeat(20_000)}`],
    ["spaces after a colon", `:${" ".repeat(200_000)}5%`],
    ["quoted figures", "Analysts give 5%, ".repeat(10_000)],
    ["conclusions after figures", "45% is where I land ".repeat(10_000)],
    ["contradicting conclusions", "Maybe 30%, maybe 45%. ".repeat(10_000)],
    ["paragraphs of figures", "5%\n\n".repeat(50_000)],
    ["turns to an own view", `${"but I ".repeat(30_000)}5% 6%`],
  ])("stays fast on pathological input: %s", (_, reply) => {
    const started = performance.now();
    for (const type of ANSWER_TYPES) {
      extractAnswer(type, reply, type === "multiple_choice" ? PARTIES : null);
    }
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("caps a free response at 2000 characters", () => {
    const answer = extractAnswer("free_response", `<answer>${"word ".repeat(1000)}</answer>`, null);
    expect(answer?.type === "free_response" && answer.text.length).toBe(2000 - 1);
  });
});
