// Sibyl's ForecastBench figures against ForecastBench's own leaderboard code. The fixture
// (fixtures/forecastbench-crosscheck) is synthetic: processed forecast files of two rounds, dataset
// and market questions with three horizons, ForecastBench's comparison models, its LLM runs (one
// released more than a year before the second round, one using tools, one over the 5% imputation
// limit on markets only) and two external submissions. expected.json holds what
// forecastingresearch/forecastbench at commit 05f612ecba72d1318a95fb9fc0e6186fbf1f0a81,
// src/leaderboard/main.py (`get_df_info`, `combine_forecasting_rounds`,
// `get_model_release_date_info`, `filter_to_{tournament,baseline}_leaderboard_models`,
// `score_models`), with forecastingresearch/utils at a8c8554674a822ba07f6b86fae882d7f2bc123c4
// for model release dates, computed from these files under Debian's python3-pandas 1.5.3. Only
// pyfixest (not packaged for Debian) was stood in for: its fixed effects were solved exactly by
// least squares, the problem pyfixest solves iteratively. reference-models.json is that
// registry's release date and tool use of each model run.
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { adjustedReplicates } from "../../src/evaluation/forecastbench/adjusted-bootstrap.js";
import {
  adjustedMeans,
  difficultyAdjusted,
} from "../../src/evaluation/forecastbench/difficulty.js";
import {
  FixedEffectsPanel,
  questionFixedEffects,
} from "../../src/evaluation/forecastbench/fixed-effects.js";
import {
  questionEffects,
  type ReferenceRow,
} from "../../src/evaluation/forecastbench/question-effects.js";
import { loadReference } from "../../src/evaluation/forecastbench/reference.js";
import {
  type Leaderboard,
  loadReferenceModels,
} from "../../src/evaluation/forecastbench/reference-models.js";
import { type BenchRow, benchMeans } from "../../src/evaluation/forecastbench/scores.js";
import { questionKind, questionPk } from "../../src/evaluation/forecastbench/sources.js";

const FIXTURE = path.join(import.meta.dirname, "fixtures", "forecastbench-crosscheck");
const TOLERANCE = 1e-9;

interface Expected {
  dropped_for_imputation: [string, string, string][];
  plain: Record<
    string,
    { dataset: { brier: number; n: number }; market: { brier: number; n: number }; overall: number }
  >;
  leaderboards: Record<
    Leaderboard,
    {
      models: Record<string, Record<string, number | null>>;
      fitted_on: string[][];
    }
  >;
}

const expected: Expected = JSON.parse(await readFile(path.join(FIXTURE, "expected.json"), "utf8"));
const models = await loadReferenceModels(path.join(FIXTURE, "reference-models.json"));
const reference = await loadReference(path.join(FIXTURE, "reference"), () => null, models);

interface FileRow {
  id: string;
  source: string;
  forecast: number;
  resolution_date: string;
  resolved_to: number;
  resolved: boolean;
  imputed: boolean;
}

/** The model under test: its forecast files read as Sibyl scores a run's forecasts. */
async function modelRows(): Promise<BenchRow[]> {
  const files = (await readdir(FIXTURE)).filter((name) => name.startsWith("model-"));
  const rows: BenchRow[] = [];
  for (const file of files) {
    const doc = JSON.parse(await readFile(path.join(FIXTURE, file), "utf8"));
    for (const row of doc.forecasts as FileRow[]) {
      const kind = questionKind(row.source);
      if (kind === null) continue;
      rows.push({
        pk: questionPk(doc.forecast_due_date, row.source, row.id, row.resolution_date),
        stratum: `${doc.forecast_due_date}|${row.source}`,
        kind,
        forecast: row.forecast,
        outcome: row.resolved_to,
        imputed: row.imputed,
        resolved: row.resolved,
      });
    }
  }
  return rows;
}

const asBench = (rows: ReferenceRow[]): BenchRow[] =>
  rows.map((row) => ({
    pk: row.pk,
    stratum: `${row.dueDate}|${row.pk.split("_")[1]}`,
    kind: row.kind,
    forecast: row.forecast,
    outcome: row.outcome,
    imputed: false,
    resolved: true,
  }));

/** Each forecaster's rows, keyed `organization|model` as expected.json names them. */
async function forecasters(): Promise<Map<string, BenchRow[]>> {
  const byName = new Map<string, ReferenceRow[]>();
  for (const row of reference.rows) {
    const key = `${row.organization}|${row.model}`;
    byName.set(key, [...(byName.get(key) ?? []), row]);
  }
  const out = new Map([...byName].map(([key, rows]) => [key, asBench(rows)]));
  out.set("Sibyl|sibyl-under-test", await modelRows());
  return out;
}

const close = (actual: number | null, wanted: number | null | undefined) => {
  expect(wanted).not.toBeUndefined();
  if (wanted === null || wanted === undefined) return expect(actual).toBeNull();
  expect(actual).not.toBeNull();
  expect(Math.abs((actual ?? Number.NaN) - wanted)).toBeLessThan(TOLERANCE);
};

describe("ForecastBench's own code and Sibyl agree on a realistically shaped reference", () => {
  it("drops the same forecast file for its imputed market forecasts", () => {
    const [[organization, model, dueDate]] = expected.dropped_for_imputation as [
      [string, string, string],
    ];
    expect(expected.dropped_for_imputation).toHaveLength(1);
    // 1 of 24 rows (4.2%) overall, but 1 of 6 markets (16.7%): over ForecastBench's 5%.
    expect(reference.skipped).toEqual([expect.stringMatching(/more than 5% imputed/)]);
    expect(reference.skipped[0]).toContain(`${dueDate}.gemini`);
    expect(
      reference.rows.some(
        (row) =>
          row.organization === organization && row.model === model && row.dueDate === dueDate,
      ),
    ).toBe(false);
  });

  it("gives every forecaster the same dataset, market and overall Brier", async () => {
    const all = await forecasters();
    for (const [name, figures] of Object.entries(expected.plain)) {
      const means = benchMeans(all.get(name) ?? []);
      close(means.dataset, figures.dataset.brier);
      close(means.market, figures.market.brier);
      close(means.overall, figures.overall);
    }
    expect(all.size).toBe(Object.keys(expected.plain).length);
  });

  for (const leaderboard of ["tournament", "baseline"] as const) {
    it(`fits the ${leaderboard} leaderboard's question effects on the same forecasters and rounds`, () => {
      const effects = questionEffects(reference.rows, leaderboard);
      const fitted = new Set(
        reference.rows
          .filter((row) => effects.fittedOn.includes(row.forecaster))
          .filter((row) => !effects.tooOld.includes(`${row.forecaster} (${row.dueDate})`))
          .map((row) => `${row.organization}|${row.model}|${row.dueDate}`),
      );
      expect([...fitted].sort()).toEqual(expected.leaderboards[leaderboard].fitted_on[0]);
      // gpt-5-mini was released 2025-08-07: 353 days before the first round, 367 before the second.
      const gpt5Mini =
        leaderboard === "tournament" ? "gpt-5-mini-2025-08-07†" : "gpt-5-mini-2025-08-07";
      expect(effects.tooOld).toContain(`ForecastBench_OpenAI_${gpt5Mini} (2026-08-09)`);
      expect(effects.tooOld).not.toContain(`ForecastBench_OpenAI_${gpt5Mini} (2026-07-26)`);
      expect(effects.releaseDateUnknown).toEqual([]);
      expect(effects.marketMethod).toBe(
        leaderboard === "tournament" ? "imputed_forecaster_brier" : "two_way_fixed_effects",
      );
    });

    it(`gives every ${leaderboard} forecaster ForecastBench's difficulty-adjusted Brier and Brier Index`, async () => {
      const effects = questionEffects(reference.rows, leaderboard);
      const all = await forecasters();
      const board = expected.leaderboards[leaderboard].models;
      expect(Object.keys(board).length).toBeGreaterThan(8);
      for (const [name, figures] of Object.entries(board)) {
        const rows = all.get(name);
        expect(rows, name).toBeDefined();
        const adjusted = adjustedMeans(rows ?? [], effects);
        close(adjusted.dataset, figures.two_way_fixed_effects_dataset);
        close(adjusted.market, figures.two_way_fixed_effects_market);
        close(adjusted.overall, figures.two_way_fixed_effects_overall);
        close((1 - Math.sqrt(adjusted.overall ?? Number.NaN)) * 100, figures.brier_index_overall);
        expect(adjusted.n_dataset).toBe(figures.n_dataset);
        expect(adjusted.n_market).toBe(figures.n_market);
        expect(adjusted.without_reference).toBe(0);
      }
    });
  }
});

describe("the difficulty-adjusted score's bootstrap interval", () => {
  it("refits a draw's weighted questions as ForecastBench refits its drawn copies", () => {
    const cells = reference.rows
      .filter((row) => row.kind === "dataset" && row.model !== "Always 0.5")
      .map((row) => ({
        forecaster: row.forecaster,
        question: row.pk,
        brier: (row.forecast - row.outcome) ** 2,
      }));
    const panel = new FixedEffectsPanel(cells);
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 3 }), {
          minLength: panel.questions.length,
          maxLength: panel.questions.length,
        }),
        (counts) => {
          fc.pre(counts.some((n) => n > 0));
          // ForecastBench renames each drawn copy (`_sim_id_k`) and fits the copies as questions.
          const copies = cells.flatMap((cell) => {
            const n = counts[panel.questions.indexOf(cell.question)] ?? 0;
            return Array.from({ length: n }, (_, k) => ({
              ...cell,
              question: `${cell.question}_sim_id_${k}`,
            }));
          });
          const expanded = questionFixedEffects(copies);
          const weighted = panel.solve(Float64Array.from(counts));
          // Compare through what the score uses: effects less their weighted mean.
          const centre = (pairs: [number, number][]) => {
            const total = pairs.reduce((sum, [w]) => sum + w, 0);
            const mean = pairs.reduce((sum, [w, b]) => sum + w * b, 0) / total;
            return pairs.map(([, b]) => b - mean);
          };
          const kept = counts.flatMap((n, i) => (n > 0 ? [i] : []));
          const ours = centre(kept.map((i) => [counts[i] ?? 0, weighted[i] ?? 0]));
          const theirs = centre(
            kept.map((i) => [counts[i] ?? 0, expanded.get(`${panel.questions[i]}_sim_id_0`) ?? 0]),
          );
          ours.forEach((value, k) => {
            expect(Math.abs(value - (theirs[k] ?? 0))).toBeLessThan(1e-9);
          });
        },
      ),
      { numRuns: 25 },
    );
  });

  it("brackets the point estimate, is reproducible, and covers a forecaster of one round", async () => {
    const effects = questionEffects(reference.rows, "tournament");
    const all = await forecasters();
    const ours = all.get("Sibyl|sibyl-under-test") ?? [];
    const oneRound = all.get("ForecastBench|gemini-3.1-flash-lite†") ?? [];
    const pks = [...ours, ...oneRound].map((row) => row.pk);
    const replicates = adjustedReplicates(reference.rows, effects, pks, 400);
    const adjusted = difficultyAdjusted(ours, effects, replicates);
    for (const kind of ["dataset", "market", "overall"] as const) {
      const [low, high] = adjusted.ci[kind] ?? [Number.NaN, Number.NaN];
      expect(low).toBeLessThan(adjusted[kind] ?? Number.NaN);
      expect(high).toBeGreaterThan(adjusted[kind] ?? Number.NaN);
      const [indexLow, indexHigh] = adjusted.brier_index_ci[kind] ?? [Number.NaN, Number.NaN];
      expect(indexLow).toBeLessThan(adjusted.brier_index[kind] ?? Number.NaN);
      expect(indexHigh).toBeGreaterThan(adjusted.brier_index[kind] ?? Number.NaN);
    }
    expect(
      difficultyAdjusted(ours, effects, adjustedReplicates(reference.rows, effects, pks, 400)),
    ).toEqual(adjusted);
    const width = (ci: [number, number] | null) => (ci === null ? Number.NaN : ci[1] - ci[0]);
    const gemini = difficultyAdjusted(oneRound, effects, replicates);
    expect(width(gemini.ci.dataset)).toBeGreaterThan(0);
    expect(gemini.ci.overall).not.toBeNull();
  });
});
