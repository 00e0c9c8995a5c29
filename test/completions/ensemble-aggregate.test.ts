import { describe, expect, it } from "vitest";
import { readAnswerTag } from "../../src/completions/ensemble/answer-tag.js";
import { ensembleChoice, type SampleReply } from "../../src/completions/ensemble/result.js";
import { aggregateForecasts } from "../../src/evaluation/aggregate.js";
import { AGGREGATES } from "../../src/evaluation/types.js";
import {
  type AggregatableAnswer,
  aggregateAnswers,
} from "../../src/forecast/aggregation/aggregate-answers.js";
import { formatAnswerTag } from "../../src/forecast/index.js";

const binary = (...ps: number[]): AggregatableAnswer[] =>
  ps.map((probability) => ({ type: "binary", probability }));

function probabilityOf(answer: AggregatableAnswer | null): number {
  if (answer?.type !== "binary") throw new Error(`not a binary answer: ${JSON.stringify(answer)}`);
  return answer.probability;
}

describe("aggregating binary answers", () => {
  it.each([
    ["median", [0.1, 0.2, 0.9], 0.2],
    ["median", [0.1, 0.2, 0.6, 0.9], 0.4],
    ["mean", [0.1, 0.2, 0.9], 0.4],
    // log-odds 0 and ln 9: their mean ln 3 is the odds 3:1.
    ["logit_mean", [0.5, 0.9], 0.75],
    ["logit_mean", [0.2, 0.8], 0.5],
    // Three answers: one dropped at each end.
    ["trimmed_mean", [0.1, 0.5, 0.6], 0.5],
    // Ten answers: the lowest and highest tenth (one each) dropped, mean of 0.2 … 0.9.
    ["trimmed_mean", [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0], 0.55],
    // Two answers: nothing to trim.
    ["trimmed_mean", [0.2, 0.4], 0.3],
  ] as const)("%s of %j is %d", (aggregate, values, expected) => {
    expect(probabilityOf(aggregateAnswers("binary", binary(...values), aggregate))).toBeCloseTo(
      expected,
      12,
    );
  });

  it("uses the same definitions as sibyl eval --aggregate", () => {
    const values = [0.03, 0.41, 0.47, 0.5, 0.62, 0.7, 0.74, 0.88, 0.97, 0.99, 0.12];
    for (const aggregate of AGGREGATES) {
      const evaluated = aggregateForecasts(
        values.map((probability) => ({ type: "binary" as const, probability })),
        aggregate,
      );
      const served = aggregateAnswers("binary", binary(...values), aggregate);
      expect(evaluated?.type === "binary" ? evaluated.probability : null).toBe(
        probabilityOf(served),
      );
    }
  });

  it("has nothing to combine without answers", () => {
    expect(aggregateAnswers("binary", [], "median")).toBeNull();
  });
});

describe("aggregating multiple-choice answers", () => {
  const answers: AggregatableAnswer[] = [
    { type: "multiple_choice", probabilities: { A: 0.6, B: 0.4 } },
    { type: "multiple_choice", probabilities: { A: 0.2, B: 0.8 } },
    { type: "multiple_choice", probabilities: { A: 0.4, B: 0.3, C: 0.3 } },
  ];

  it("takes each option's median (a missing option counts as 0) and renormalizes", () => {
    // A: median(0.6, 0.2, 0.4) = 0.4; B: median(0.4, 0.8, 0.3) = 0.4; C: median(0, 0, 0.3) = 0.
    expect(aggregateAnswers("multiple_choice", answers, "median")).toEqual({
      type: "multiple_choice",
      probabilities: { A: 0.5, B: 0.5, C: 0 },
    });
  });

  it("takes each option's mean in log-odds", () => {
    const result = aggregateAnswers(
      "multiple_choice",
      [
        { type: "multiple_choice", probabilities: { A: 0.5, B: 0.5 } },
        { type: "multiple_choice", probabilities: { A: 0.9, B: 0.1 } },
      ],
      "logit_mean",
    );
    // A: logit mean of 0.5 and 0.9 = 0.75; B: of 0.5 and 0.1 = 0.25; already summing to 1.
    if (result?.type !== "multiple_choice") throw new Error("not multiple choice");
    expect(result.probabilities.A).toBeCloseTo(0.75, 12);
    expect(result.probabilities.B).toBeCloseTo(0.25, 12);
  });
});

describe("aggregating continuous answers", () => {
  const normal = (mean: number, standardDeviation: number): AggregatableAnswer => ({
    type: "continuous",
    mean,
    standardDeviation,
  });

  it("combines the means and takes the mixture's spread", () => {
    // Mean 12; √((2² + 4²)/2 + ((10 − 12)² + (14 − 12)²)/2) = √(10 + 4) = √14.
    const result = aggregateAnswers("continuous", [normal(10, 2), normal(14, 4)], "mean");
    expect(result).toEqual({ type: "continuous", mean: 12, standardDeviation: Math.sqrt(14) });
  });

  it("uses the median for the centre and still widens for disagreement", () => {
    // Median 12; the means' own mean is 14, their variance (16 + 4 + 36)/3; each variance 1.
    const result = aggregateAnswers(
      "continuous",
      [normal(10, 1), normal(12, 1), normal(20, 1)],
      "median",
    );
    if (result?.type !== "continuous") throw new Error("not continuous");
    expect(result.mean).toBe(12);
    expect(result.standardDeviation).toBeCloseTo(Math.sqrt(1 + 56 / 3), 12);
  });

  it("combines single values, with logit_mean a plain mean for quantities", () => {
    const values = [1, 2, 100].map(
      (value): AggregatableAnswer => ({
        type: "continuous_value_only",
        value,
      }),
    );
    expect(aggregateAnswers("continuous_value_only", values, "median")).toEqual({
      type: "continuous_value_only",
      value: 2,
    });
    expect(aggregateAnswers("continuous_value_only", values, "logit_mean")).toEqual({
      type: "continuous_value_only",
      value: 103 / 3,
    });
  });
});

describe("reading answer tags back", () => {
  it.each<AggregatableAnswer>([
    { type: "binary", probability: 0.62 },
    { type: "multiple_choice", probabilities: { A: 0.55, B: 0.45 } },
    { type: "continuous", mean: 42.5, standardDeviation: 5.2 },
    { type: "continuous_value_only", value: -1250 },
  ])("reads what formatAnswerTag wrote: %j", (answer) => {
    expect(readAnswerTag(answer.type, `\n\n${formatAnswerTag(answer)}`)).toEqual(answer);
  });

  it.each([
    ["binary", ""],
    ["binary", "<answer>{}</answer>"],
    ["continuous", "<answer>0.5</answer>"],
    ["multiple_choice", "<answer>{}</answer>"],
    ["continuous_value_only", "<answer>not json</answer>"],
  ] as const)("finds no %s answer in %j", (type, tags) => {
    expect(readAnswerTag(type, tags)).toBeNull();
  });
});

describe("the ensemble's one choice", () => {
  const reply = (index: number, tags: string, outcome: SampleReply["outcome"]): SampleReply => ({
    index,
    reply: `reply ${index}`,
    thinking: null,
    finishReason: "stop",
    tags,
    outcome,
  });

  it("leaves unreadable samples out of the aggregate and counts them", () => {
    const choice = ensembleChoice({ samples: 3, aggregate: "mean" }, "binary", [
      reply(0, "\n\n<answer>0.2</answer>", "extracted"),
      reply(1, "", "failed"),
      reply(2, "\n\n<answer>0.6</answer>", "repaired"),
    ]);
    expect(choice.content).toBe(
      "Mean of 2 answers from 3 samples (1 without a readable answer).\n\n<answer>0.4</answer>",
    );
    expect(choice.ensemble).toMatchObject({
      status: "aggregated",
      aggregated_answer: 0.4,
      samples_requested: 3,
      samples_answered: 2,
      samples_unanswered: 1,
    });
    expect(choice.ensemble.samples.map((s) => [s.answer, s.answer_status])).toEqual([
      [0.2, "extracted"],
      [null, "failed"],
      [0.6, "repaired"],
    ]);
  });

  it("states the aggregate as its tag does: rounded and clamped", () => {
    const choice = ensembleChoice({ samples: 2, aggregate: "median" }, "binary", [
      reply(0, "<answer>0.999</answer>", "extracted"),
      reply(1, "<answer>0.999</answer>", "extracted"),
    ]);
    expect(choice.ensemble.aggregated_answer).toBe(0.999);
    expect(choice.content.endsWith("<answer>0.999</answer>")).toBe(true);
  });

  it("carries no answer tag when no sample could be read, and says so", () => {
    const choice = ensembleChoice({ samples: 2, aggregate: "median" }, "binary", [
      { ...reply(0, "", "failed"), finishReason: "length" },
      reply(1, "", "failed"),
    ]);
    expect(choice.content).not.toContain("<answer>");
    expect(choice.finishReason).toBe("length");
    expect(choice.ensemble).toMatchObject({
      status: "no_answers",
      aggregated_answer: null,
      samples_answered: 0,
      samples_unanswered: 2,
    });
  });

  it("counts samples whose call failed as failed and unanswered", () => {
    const choice = ensembleChoice({ samples: 4, aggregate: "median" }, "binary", [
      reply(0, "<answer>0.3</answer>", "extracted"),
      reply(2, "", "failed"),
    ]);
    expect(choice.content).toBe(
      "Median of 1 answer from 4 samples (1 without a readable answer, 2 with no reply from the model).\n\n<answer>0.3</answer>",
    );
    expect(choice.ensemble.samples.map((sample) => sample.index)).toEqual([0, 2]);
    expect(choice.ensemble).toMatchObject({
      samples_answered: 1,
      samples_unanswered: 3,
      samples_failed: 2,
      aggregated_answer: 0.3,
    });
  });
});
