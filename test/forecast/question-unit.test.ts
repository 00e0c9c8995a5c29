import { describe, expect, it } from "vitest";
import { extractAnswer } from "../../src/forecast/index.js";

const BILLIONS = "What will Nvidia's quarterly revenue be, in billions of dollars?";

describe("continuous answers in the unit the question asks for", () => {
  it.each([
    [BILLIONS, "Median estimate: $68.5B, with a standard deviation of $4B.", 68.5, 4],
    [BILLIONS, "Mean: 68.5 billion\nSD: 4 billion", 68.5, 4],
    [BILLIONS, "Expected: $68,500M (σ = $4,000M)", 68.5, 4],
    [BILLIONS, "Mean: 68.5\nStandard deviation: 4", 68.5, 4],
    [
      "How many barrels a day will Iraq export in 2027 (millions of barrels)?",
      "Best estimate: 3.4 million barrels a day. Uncertainty (1 sd): 250k barrels.",
      3.4,
      0.25,
    ],
    [
      "What will the deficit be, in $bn?",
      "I put the mean at £1.2 trillion with an SD of £150bn.",
      1200,
      150,
    ],
    ["How many people will attend? Last year 1,200 came.", "Mean: 1.5k\nSD: 300", 1500, 300],
  ])("%s / %s", (question, reply, mean, sd) => {
    const answer = extractAnswer("continuous", reply, null, question);
    expect(answer).toMatchObject({ type: "continuous" });
    if (answer?.type !== "continuous") return;
    expect(answer.mean).toBeCloseTo(mean, 6);
    expect(answer.standardDeviation).toBeCloseTo(sd, 6);
  });

  it("reads a single value in the question's unit", () => {
    const answer = extractAnswer(
      "continuous_value_only",
      "Final estimate: $2.75 trillion",
      null,
      "Market cap in trillions of dollars?",
    );
    expect(answer).toEqual({ type: "continuous_value_only", value: 2.75 });
  });

  it("leaves figures alone when the question names no unit", () => {
    const answer = extractAnswer(
      "continuous_value_only",
      "Final estimate: $2.75 trillion",
      null,
      "What will the market cap be?",
    );
    expect(answer).toEqual({ type: "continuous_value_only", value: 2.75e12 });
  });
});
