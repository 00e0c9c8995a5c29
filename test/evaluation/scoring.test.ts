import { describe, expect, it } from "vitest";
import { aggregateForecasts, combine } from "../../src/evaluation/aggregate.js";
import { bootstrapInterval } from "../../src/evaluation/scoring/bootstrap.js";
import {
  expectedCalibrationError,
  reliabilityBins,
} from "../../src/evaluation/scoring/calibration.js";
import {
  binaryLogScore,
  brierScore,
  gaussianLogScore,
  multiclassBrierScore,
  multiclassLogScore,
  normalCrps,
} from "../../src/evaluation/scoring/rules.js";
import { pairedDifference, scoreCases } from "../../src/evaluation/scoring/score-cases.js";
import type { EvalItem, Forecast, Resolution } from "../../src/evaluation/types.js";

describe("scoring rules against hand-computed values", () => {
  it("Brier: a constant 0.5 scores exactly 0.25 whatever happens", () => {
    expect(brierScore(0.5, 1)).toBe(0.25);
    expect(brierScore(0.5, 0)).toBe(0.25);
    expect(brierScore(0.8, 1)).toBeCloseTo(0.04, 12);
    expect(brierScore(0.8, 0)).toBeCloseTo(0.64, 12);
    // An open market scored against its price.
    expect(brierScore(0.3, 0.6)).toBeCloseTo(0.09, 12);
  });

  it("binary log score: ln of the probability given to what happened, floored at 0.001", () => {
    expect(binaryLogScore(0.8, 1)).toBeCloseTo(-0.2231435513, 9);
    expect(binaryLogScore(0.8, 0)).toBeCloseTo(-1.6094379124, 9);
    expect(binaryLogScore(1, 0)).toBeCloseTo(Math.log(0.001), 12);
    expect(binaryLogScore(0.5, 1)).toBeCloseTo(Math.log(0.5), 12);
  });

  it("multiclass Brier and log score", () => {
    expect(multiclassBrierScore([0.2, 0.5, 0.3], 1)).toBeCloseTo(0.04 + 0.25 + 0.09, 12);
    expect(multiclassBrierScore([1, 0, 0], 1)).toBe(2);
    expect(multiclassBrierScore([1 / 3, 1 / 3, 1 / 3], 0)).toBeCloseTo(2 / 3, 12);
    expect(multiclassLogScore([0.2, 0.5, 0.3], 1)).toBeCloseTo(Math.log(0.5), 12);
    expect(multiclassLogScore([0.5, 0.5, 0], 2)).toBeCloseTo(Math.log(0.001), 12);
  });

  it("CRPS of a normal (closed form) and the Gaussian log score", () => {
    // z = 0: 2φ(0) − 1/√π
    expect(normalCrps(0, 1, 0)).toBeCloseTo(0.7978845608 - 0.5641895835, 6);
    // z = 1: (2Φ(1) − 1) + 2φ(1) − 1/√π
    expect(normalCrps(2, 1, 3)).toBeCloseTo(0.6826894921 + 0.483941449 - 0.5641895835, 6);
    expect(normalCrps(0, 2, 0)).toBeCloseTo(2 * (0.7978845608 - 0.5641895835), 6);
    expect(normalCrps(5, 1, 1)).toBeCloseTo(normalCrps(1, 1, 5), 9);
    expect(gaussianLogScore(0, 1, 0)).toBeCloseTo(-0.9189385332, 9);
    expect(gaussianLogScore(2, 1, 3)).toBeCloseTo(-1.4189385332, 9);
    expect(gaussianLogScore(0, 2, 0)).toBeCloseTo(-0.9189385332 - Math.log(2), 9);
  });

  it("reliability bins and expected calibration error", () => {
    const pairs = [
      { probability: 0.05, outcome: 0 },
      { probability: 0.15, outcome: 0 },
      { probability: 0.15, outcome: 1 },
      { probability: 0.95, outcome: 1 },
    ];
    const bins = reliabilityBins(pairs);
    expect(bins.map((bin) => [bin.lower, bin.n, bin.observedFrequency])).toEqual([
      [0, 1, 0],
      [0.1, 2, 0.5],
      [0.9, 1, 1],
    ]);
    // ¼·0.05 + ½·0.35 + ¼·0.05
    expect(expectedCalibrationError(pairs)).toBeCloseTo(0.2, 12);
    expect(reliabilityBins([{ probability: 1, outcome: 1 }])[0]?.lower).toBe(0.9);
    expect(expectedCalibrationError([])).toBeNull();
  });

  it("bootstrap intervals are reproducible and bracket the mean", () => {
    const values = [0.1, 0.3, 0.2, 0.5, 0.05, 0.4, 0.25, 0.15];
    const interval = bootstrapInterval(values);
    expect(interval).toEqual(bootstrapInterval(values));
    const [low, high] = interval ?? [0, 0];
    expect(low).toBeLessThan(0.24375);
    expect(high).toBeGreaterThan(0.24375);
    expect(bootstrapInterval([0.25, 0.25, 0.25])).toEqual([0.25, 0.25]);
    expect(bootstrapInterval([0.3])).toBeNull();
  });
});

describe("aggregates", () => {
  it("median, mean, trimmed mean and logit mean", () => {
    expect(combine([0.1, 0.2, 0.9], "median", true)).toBe(0.2);
    expect(combine([0.1, 0.2, 0.3, 0.9], "median", true)).toBeCloseTo(0.25, 12);
    expect(combine([0.1, 0.2, 0.9], "mean", true)).toBeCloseTo(0.4, 12);
    expect(combine([0.1, 0.2, 0.9], "trimmed_mean", true)).toBeCloseTo(0.2, 12);
    const tenths = Array.from({ length: 10 }, (_, i) => (i + 1) / 10);
    expect(combine(tenths, "trimmed_mean", true)).toBeCloseTo(0.55, 12);
    // logit(0.5) = 0, logit(0.9) = ln 9: the mean ln 3 maps back to 3/4.
    expect(combine([0.5, 0.9], "logit_mean", true)).toBeCloseTo(0.75, 12);
    expect(combine([0.2, 0.8], "logit_mean", true)).toBeCloseTo(0.5, 12);
    expect(combine([10, 20], "logit_mean", false)).toBe(15);
  });

  it("combines option vectors and normals component-wise", () => {
    const choices: Forecast[] = [
      { type: "multiple_choice", probabilities: [0.6, 0.4, 0] },
      { type: "multiple_choice", probabilities: [0.2, 0.2, 0.6] },
    ];
    const mean = aggregateForecasts(choices, "mean");
    expect(mean?.type === "multiple_choice" && mean.probabilities.map((p) => p.toFixed(6))).toEqual(
      ["0.400000", "0.300000", "0.300000"],
    );
    const normals: Forecast[] = [
      { type: "continuous", mean: 10, sd: 2 },
      { type: "continuous", mean: 14, sd: 4 },
      { type: "continuous", mean: 30, sd: 3 },
    ];
    // The median mean; the sd of the equal-weight mixture: √(mean variance + variance of means).
    const variances = (4 + 16 + 9) / 3;
    const centre = (10 + 14 + 30) / 3;
    const spread = ((10 - centre) ** 2 + (14 - centre) ** 2 + (30 - centre) ** 2) / 3;
    const median = aggregateForecasts(normals, "median");
    expect(median?.type === "continuous" && median.mean).toBe(14);
    expect(median?.type === "continuous" && median.sd).toBeCloseTo(
      Math.sqrt(variances + spread),
      12,
    );
    expect(aggregateForecasts([], "median")).toBeNull();
  });
});

const item = (key: string, source: string, type: EvalItem["answerType"] = "binary"): EvalItem => ({
  key,
  questionId: key,
  source,
  answerType: type,
  prompt: key,
  predictionDate: "2025-01-01",
  dueDate: "2025-01-01",
  resolutionDate: "2025-02-01",
  options: type === "multiple_choice" ? ["A", "B", "C"] : null,
  marketValue: null,
  forecastBench: null,
});

const resolution = (key: string, outcome: Resolution["outcome"]): Resolution => ({
  itemKey: key,
  resolutionDate: "2025-02-01",
  outcome,
  resolved: true,
});

describe("scoreCases", () => {
  it("imputes unreadable binary forecasts as 0.5 and counts them; breaks Brier down by source", () => {
    const a = item("a", "fred");
    const b = item("b", "manifold");
    const scored = scoreCases([
      {
        item: a,
        resolution: resolution("a", { type: "binary", value: 1 }),
        forecast: { type: "binary", probability: 0.8 },
      },
      { item: b, resolution: resolution("b", { type: "binary", value: 0 }), forecast: null },
    ]);
    expect(scored.metrics.n).toBe(2);
    expect(scored.metrics.brier).toBeCloseTo((0.04 + 0.25) / 2, 6);
    expect(scored.metrics.log_score).toBeCloseTo((Math.log(0.8) + Math.log(0.5)) / 2, 6);
    expect(scored.metrics.imputed).toBe(1);
    expect(scored.metrics.by_source).toEqual({
      fred: { n: 1, brier: 0.04 },
      manifold: { n: 1, brier: 0.25 },
    });
  });

  it("scores multiple choice and continuous cases on their own", () => {
    const mc = item("mc", "sibyl", "multiple_choice");
    const num = item("num", "sibyl", "continuous");
    const missing = item("missing", "sibyl", "continuous");
    const scored = scoreCases([
      {
        item: mc,
        resolution: resolution("mc", { type: "multiple_choice", index: 1 }),
        forecast: { type: "multiple_choice", probabilities: [0.2, 0.5, 0.3] },
      },
      {
        item: num,
        resolution: resolution("num", { type: "continuous", value: 0 }),
        forecast: { type: "continuous", mean: 0, sd: 1 },
      },
      {
        item: missing,
        resolution: resolution("missing", { type: "continuous", value: 3 }),
        forecast: null,
      },
    ]);
    expect(scored.metrics.brier).toBeNull();
    expect(scored.metrics.multiple_choice).toMatchObject({ n: 1, brier: 0.38, imputed: 0 });
    // An outcome of 0 is scaled by 1.
    expect(scored.metrics.continuous).toMatchObject({
      n: 1,
      crps: 0.233695,
      scaled_crps: 0.233695,
      missing: 1,
    });
    // n counts binary forecasts only: there are none here.
    expect(scored.metrics.n).toBe(0);
  });

  it("paired differences are taken over the cases both forecasters scored", () => {
    const difference = pairedDifference(
      new Map([
        ["x", 0.04],
        ["y", 0.09],
        ["z", 0.01],
      ]),
      new Map([
        ["x", 0.25],
        ["y", 0.25],
      ]),
    );
    expect(difference.n).toBe(2);
    expect(difference.brier_difference).toBeCloseTo((0.04 - 0.25 + 0.09 - 0.25) / 2, 6);
  });
});
