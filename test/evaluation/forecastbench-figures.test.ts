import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { difficultyAdjusted } from "../../src/evaluation/forecastbench/difficulty.js";
import { questionFixedEffects } from "../../src/evaluation/forecastbench/fixed-effects.js";
import {
  questionEffects,
  type ReferenceRow,
} from "../../src/evaluation/forecastbench/question-effects.js";
import {
  type BenchRow,
  benchScores,
  imputationCheck,
} from "../../src/evaluation/forecastbench/scores.js";
import { questionPk } from "../../src/evaluation/forecastbench/sources.js";

const row = (fields: Partial<BenchRow> & Pick<BenchRow, "pk" | "kind">): BenchRow => ({
  stratum: `2026-07-05|${fields.kind === "dataset" ? "fred" : "manifold"}`,
  forecast: 0.5,
  outcome: 1,
  imputed: false,
  resolved: true,
  ...fields,
});

const reference = (
  model: string,
  pk: string,
  kind: ReferenceRow["kind"],
  forecast: number,
  outcome: number,
): ReferenceRow => ({
  forecaster: `ForecastBench_ForecastBench_${model}`,
  organization: "ForecastBench",
  modelOrganization: "ForecastBench",
  external: false,
  leaderboards: ["baseline", "tournament"],
  releaseDate: null,
  dueDate: "2026-07-05",
  model,
  pk,
  kind,
  forecast,
  outcome,
});

describe("ForecastBench's question keys", () => {
  it("names a market once per round and a dataset question once per horizon", () => {
    expect(questionPk("2026-07-05", "Manifold", "abc", null)).toBe("2026-07-05_manifold_abc");
    expect(questionPk("2026-07-05", "fred", "DGS10", "2026-08-04")).toBe(
      "2026-07-05_fred_DGS10_30",
    );
  });
});

describe("dataset mean, market mean and their equal-weight overall", () => {
  it("weighs the two kinds equally, whatever their counts", () => {
    const scores = benchScores([
      row({ pk: "d1", kind: "dataset", forecast: 0.8, outcome: 1 }),
      row({ pk: "d2", kind: "dataset", forecast: 0.8, outcome: 0 }),
      row({ pk: "d3", kind: "dataset", forecast: 0.2, outcome: 0 }),
      row({ pk: "m1", kind: "market", forecast: 0.7, outcome: 1 }),
      // An open market: counted for imputation, never scored.
      row({
        pk: "m2",
        kind: "market",
        forecast: 0.5,
        outcome: 0.4,
        imputed: true,
        resolved: false,
      }),
    ]);
    // Dataset (0.04 + 0.64 + 0.04) / 3 = 0.24; market 0.09; overall (0.24 + 0.09) / 2.
    expect(scores.dataset).toMatchObject({ n: 3, brier: 0.24 });
    expect(scores.market).toMatchObject({ n: 1, brier: 0.09 });
    expect(scores.overall).toMatchObject({ n: 4, brier: 0.165 });
    // The pooled mean would be (0.72 + 0.09) / 4 = 0.2025: not ForecastBench's figure.
    expect(scores.overall.brier).not.toBeCloseTo(0.2025, 4);
  });

  it("has no overall without both kinds", () => {
    const scores = benchScores([row({ pk: "d1", kind: "dataset", forecast: 0.8 })]);
    expect(scores.overall.brier).toBeNull();
    expect(scores.market).toEqual({ brier: null, n: 0, ci: null });
  });

  it("resamples questions within their stratum: each kind's mean stays its own", () => {
    const rows = [
      ...Array.from({ length: 6 }, (_, i) =>
        row({ pk: `d${i}`, kind: "dataset", forecast: i % 2, outcome: i % 2 }),
      ),
      ...Array.from({ length: 6 }, (_, i) =>
        row({ pk: `m${i}`, kind: "market", forecast: 1, outcome: 0 }),
      ),
    ];
    const scores = benchScores(rows);
    // Dataset always 0, market always 1: every draw's overall is 0.5.
    expect(scores.overall.ci).toEqual([0.5, 0.5]);
    expect(benchScores(rows)).toEqual(scores);
  });
});

describe("ForecastBench's 5% imputation rule", () => {
  it("flags more than 5% over all rows, market rows or dataset rows, not 5% itself", () => {
    const rows = (imputed: number, total: number, kind: BenchRow["kind"]) =>
      Array.from({ length: total }, (_, i) =>
        row({ pk: `${kind}${i}`, kind, imputed: i < imputed }),
      );
    expect(imputationCheck(rows(1, 20, "dataset")).over_cutoff).toBe(false);
    expect(imputationCheck(rows(2, 20, "dataset"))).toMatchObject({
      overall_pct: 10,
      dataset_pct: 10,
      market_pct: null,
      over_cutoff: true,
    });
    // 1 of 30 overall (3.3%) but 1 of 10 markets: over.
    const mixed = [...rows(0, 20, "dataset"), ...rows(1, 10, "market")];
    expect(imputationCheck(mixed)).toMatchObject({ market_pct: 10, over_cutoff: true });
    // Open markets count for markets and overall, not for datasets.
    const open = row({ pk: "m", kind: "market", imputed: true, resolved: false });
    expect(imputationCheck([open, ...rows(0, 3, "dataset")])).toMatchObject({
      overall_pct: 25,
      market_pct: 100,
      dataset_pct: 0,
    });
  });
});

describe("two-way fixed effects", () => {
  it("recovers question effects of an unbalanced panel up to one shared constant", () => {
    const forecasters = { a: 0, b: 0.05, c: -0.02 };
    const questions = { q1: 0.1, q2: 0.3, q3: 0.02, q4: 0.2 };
    const missing = new Set(["b|q1", "c|q3", "a|q4"]);
    const cells = Object.entries(forecasters).flatMap(([forecaster, a]) =>
      Object.entries(questions).flatMap(([question, b]) =>
        missing.has(`${forecaster}|${question}`) ? [] : [{ forecaster, question, brier: a + b }],
      ),
    );
    const effects = questionFixedEffects(cells);
    const shift = (effects.get("q1") ?? 0) - questions.q1;
    for (const [question, b] of Object.entries(questions)) {
      expect((effects.get(question) ?? 0) - shift).toBeCloseTo(b, 9);
    }
  });
});

describe("difficulty-adjusted Brier and Brier Index", () => {
  // Two dataset questions: q1 resolved yes, q2 no; two forecasters answered both.
  const rows: ReferenceRow[] = [
    reference("model-x", "q1", "dataset", 0.9, 1),
    reference("model-x", "q2", "dataset", 0.2, 0),
    reference("model-y", "q1", "dataset", 0.6, 1),
    reference("model-y", "q2", "dataset", 0.5, 0),
    // Left out of the fit: a constant baseline.
    reference("Always 1", "q1", "dataset", 1, 1),
    reference("Always 1", "q2", "dataset", 1, 0),
    // The market's effect is the Imputed Forecaster's Brier (tournament leaderboard).
    reference("Imputed Forecaster", "m1", "market", 0.8, 1),
  ];

  it("is the mean of Brier less the question's effect, rescaled so that Always 0.5 scores 0.25", () => {
    const effects = questionEffects(rows);
    expect(effects.fittedOn).toEqual([
      "ForecastBench_ForecastBench_model-x",
      "ForecastBench_ForecastBench_model-y",
    ]);
    expect(effects.marketMethod).toBe("imputed_forecaster_brier");
    // Effects (balanced panel): q1 (0.01 + 0.16) / 2 = 0.085, q2 (0.04 + 0.25) / 2 = 0.145, up to
    // a constant. Always 0.5 before rescaling: mean(0.25 − 0.085, 0.25 − 0.145) = 0.135.
    // Our forecaster said 0.7 on q1 only: 0.09 − 0.085 + 0.25 − 0.135 = 0.12 (q1 was easy).
    // Market: 0.9 on m1: 0.01 − 0.04 + 0.25 − (0.25 − 0.04) = 0.01. Overall (0.12 + 0.01) / 2.
    const adjusted = difficultyAdjusted(
      [
        row({ pk: "q1", kind: "dataset", forecast: 0.7, outcome: 1 }),
        row({ pk: "m1", kind: "market", forecast: 0.9, outcome: 1 }),
        row({ pk: "elsewhere", kind: "dataset", forecast: 0.5, outcome: 1 }),
      ],
      effects,
    );
    expect(adjusted.dataset).toBeCloseTo(0.12, 9);
    expect(adjusted.market).toBeCloseTo(0.01, 9);
    expect(adjusted.overall).toBeCloseTo(0.065, 9);
    expect(adjusted.brier_index.dataset).toBeCloseTo((1 - Math.sqrt(0.12)) * 100, 3);
    expect(adjusted.brier_index.market).toBeCloseTo(90, 3);
    expect(adjusted.brier_index.overall).toBeCloseTo((1 - Math.sqrt(0.065)) * 100, 3);
    expect(adjusted).toMatchObject({ n_dataset: 1, n_market: 1, without_reference: 1 });
  });

  it("is the plain Brier when everyone answered the same questions (the effects cancel)", () => {
    const panel = fc.record({
      outcomes: fc.array(fc.constantFrom(0, 1), { minLength: 1, maxLength: 8 }),
      forecasters: fc.integer({ min: 1, max: 4 }),
      seed: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 40, maxLength: 40 }),
    });
    fc.assert(
      fc.property(panel, ({ outcomes, forecasters, seed }) => {
        const p = (i: number) => seed[i % seed.length] ?? 0.5;
        const reference = outcomes.flatMap((outcome, q) =>
          Array.from(
            { length: forecasters },
            (_, f): ReferenceRow => ({
              forecaster: `f${f}`,
              organization: "ForecastBench",
              modelOrganization: "ForecastBench",
              external: false,
              leaderboards: ["baseline", "tournament"],
              releaseDate: null,
              dueDate: "2026-07-05",
              model: `model-${f}`,
              pk: `q${q}`,
              kind: "dataset",
              forecast: p(q * 5 + f),
              outcome,
            }),
          ),
        );
        const ours = outcomes.map((outcome, q) =>
          row({ pk: `q${q}`, kind: "dataset", forecast: p(q * 7 + 3), outcome }),
        );
        const plain = ours.reduce((sum, r) => sum + (r.forecast - r.outcome) ** 2, 0) / ours.length;
        const adjusted = difficultyAdjusted(ours, questionEffects(reference));
        expect(adjusted.dataset).toBeCloseTo(plain, 6);
      }),
    );
  });

  it("fits market effects by two-way fixed effects without an Imputed Forecaster", () => {
    const effects = questionEffects(rows.filter((r) => r.model !== "Imputed Forecaster"));
    expect(effects.marketMethod).toBe("two_way_fixed_effects");
    expect(effects.market.size).toBe(0);
  });
});
