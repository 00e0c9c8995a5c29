import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ANSWER_TYPES,
  baselineForecast,
  baselineProse,
  baselineStatement,
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

  it("multiple choice without options gives no forecast instead of inventing A–D", () => {
    expect(baselineForecast("multiple_choice", "Which one?", null)).toBeNull();
    expect(baselineStatement("multiple_choice", "Which one?", null)).toMatch(/lists no options/);
  });

  it("multiple choice with one option is that option", () => {
    expect(baselineForecast("multiple_choice", "Which one?", { A: "Only" })).toEqual({
      type: "multiple_choice",
      probabilities: { A: 1 },
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

  it("continuous keeps years when the question asks when", () => {
    expect(
      baselineForecast("continuous", "Between 2030 and 2040, when will it happen?", null),
    ).toEqual({
      type: "continuous",
      mean: 2035,
      standardDeviation: 508.75,
    });
  });

  it.each([
    "What will US CPI be in March 2026?",
    "US CPI in March 2026",
    "What will the unemployment rate be for Q3 2026, as reported on 2026-10-02?",
    "How many seats will the party win in the 2027 election?",
  ])("continuous refuses rather than read a date or year as the quantity: %s", (question) => {
    expect(baselineForecast("continuous", question, null)).toBeNull();
    expect(baselineForecast("continuous_value_only", question, null)).toBeNull();
    const refusal = baselineStatement("continuous", question, null);
    expect(refusal).toMatch(/no figure other than dates and years/);
    // The refusal reads as no answer at all, not as a number found in it.
    expect(extractAnswer("continuous", refusal, null)).toBeNull();
  });

  it("continuous centres on the figure a comparison names, not on a name's number", () => {
    expect(
      baselineForecast("continuous", "Will the S&P 500 close above 5,000 by 2026-12-31?", null),
    ).toEqual({ type: "continuous", mean: 5000, standardDeviation: 1250 });
    expect(
      baselineForecast(
        "continuous",
        "What will US CPI inflation be in March 2026? It is currently 3.1%.",
        null,
      ),
    ).toEqual({ type: "continuous", mean: 3.1, standardDeviation: 1 });
  });

  it("continuous ignores calendar dates", () => {
    const answer = baselineForecast(
      "continuous",
      "How many cases by 2025-06-30? Last count: 1,200.",
      null,
    );
    expect(answer).toEqual({ type: "continuous", mean: 1200, standardDeviation: 300 });
  });

  it("continuous without figures gives no forecast", () => {
    expect(baselineForecast("continuous", "How tall will the tower be?", null)).toBeNull();
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
    expect(answer?.type === "free_response" && answer.text).toMatch(/base rate/);
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
        const prose = baselineStatement(type, question, options);
        if (answer === null) {
          expect(extractAnswer(type, prose, options), prose).toBeNull();
          return;
        }
        expect(prose).toBe(baselineProse(answer));
        expect(sameAnswer(extractAnswer(type, prose, options), answer, 1e-6), prose).toBe(true);
      });
    }
  }

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

describe("the baseline's continuous anchor", () => {
  const MONTHS = ["January", "March", "Sept.", "Dec"];
  const date = fc.oneof(
    fc.integer({ min: 1990, max: 2099 }).map(String),
    fc
      .tuple(fc.constantFrom(...MONTHS), fc.integer({ min: 1990, max: 2099 }))
      .map(([month, year]) => `${month} ${year}`),
    fc
      .tuple(
        fc.constantFrom(...MONTHS),
        fc.integer({ min: 1, max: 28 }),
        fc.integer({ min: 1990, max: 2099 }),
      )
      .map(([month, day, year]) => `${month} ${day}, ${year}`),
    fc
      .date({ min: new Date("1990-01-01"), max: new Date("2099-12-31"), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10)),
  );
  const filler = fc.constantFrom(
    "What will",
    "US CPI",
    "be in",
    "the rate",
    "for",
    "reported on",
    "by",
  );
  const datedQuestion = fc
    .array(fc.oneof(filler, date), { minLength: 1, maxLength: 8 })
    .map((parts) => `${parts.join(" ")}?`);

  it("never takes a date or a year for the quantity", () => {
    fc.assert(
      fc.property(datedQuestion, (question) => {
        expect(baselineForecast("continuous", question, null)).toBeNull();
      }),
      { numRuns: 400 },
    );
  });

  it("centres on a current value the question states, whatever dates surround it", () => {
    fc.assert(
      fc.property(
        datedQuestion,
        fc
          .double({ min: 0.01, max: 1e6, noNaN: true })
          .map((value) => Number(value.toFixed(2)))
          // A whole number from 1900 to 2100 reads as a year, which the baseline leaves out.
          .filter((value) => !(Number.isInteger(value) && value >= 1900 && value <= 2100)),
        (question, value) => {
          const stated = `${question} It is currently ${value}.`;
          const answer = baselineForecast("continuous", stated, null);
          expect(answer).toMatchObject({ type: "continuous", mean: value });
        },
      ),
      { numRuns: 400 },
    );
  });
});
