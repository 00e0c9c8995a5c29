// Sibyl's ForecastBench figures on real ForecastBench files: the 2024-07-21 human round of
// forecastingresearch/forecastbench-datasets (commit 9abcac9f; superforecasters' individual
// forecasts at c06d4d7f), processed by forecastingresearch/forecastbench at commit
// 05f612ecba72d1318a95fb9fc0e6186fbf1f0a81: `src/resolve/_prepare.py` and `_impute.py` wrote
// reference/, `src/leaderboard/main.py` computed expected.json from it (Debian's python3-pandas
// 1.5.3; pyfixest stood in for by an exact least-squares solve). The fixture's README says how.
// Every processed file has a row for every question of the round, so the forecasters answered the
// same questions: the fixed effects cancel and each difficulty-adjusted score is the plain Brier.
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { adjustedMeans } from "../../src/evaluation/forecastbench/difficulty.js";
import {
  questionEffects,
  type ReferenceRow,
} from "../../src/evaluation/forecastbench/question-effects.js";
import { loadReference } from "../../src/evaluation/forecastbench/reference.js";
import {
  type BenchRow,
  benchMeans,
  imputationCheck,
} from "../../src/evaluation/forecastbench/scores.js";
import { questionKind } from "../../src/evaluation/forecastbench/sources.js";

const FIXTURE = path.join(import.meta.dirname, "fixtures", "forecastbench-real-2024-07-21");
const ROUND = path.join(FIXTURE, "reference", "2024-07-21");
const TOLERANCE = 1e-9;

interface Figures {
  two_way_fixed_effects_dataset: number;
  two_way_fixed_effects_market: number;
  two_way_fixed_effects_overall: number;
  brier_index_dataset: number;
  brier_index_market: number;
  brier_index_overall: number;
  n_dataset: number;
  n_market: number;
}

interface Expected {
  dropped_for_imputation: string[];
  imputation: Record<
    string,
    { overall_pct: number; market_pct: number; dataset_pct: number; dropped: boolean }
  >;
  plain: Record<
    string,
    { dataset: number; market: number; overall: number; n_dataset: number; n_market: number }
  >;
  leaderboards: Record<"baseline" | "tournament", { models: Record<string, Figures> }>;
}

interface ProcessedRow {
  id: string;
  source: string;
  resolution_date: string;
  forecast: number;
  resolved_to: number;
  resolved: boolean;
  imputed: boolean;
}

interface ForecastFile<Row> {
  organization: string;
  model: string;
  forecasts: Row[];
}

const readJson = async <T>(file: string): Promise<T> => JSON.parse(await readFile(file, "utf8"));

const expected = await readJson<Expected>(path.join(FIXTURE, "expected.json"));
const reference = await loadReference(path.join(FIXTURE, "reference"), () => null);

const processedFiles = async () =>
  Promise.all(
    (await readdir(ROUND)).map(async (name) => ({
      name,
      doc: await readJson<ForecastFile<ProcessedRow>>(path.join(ROUND, name)),
    })),
  );

const byForecaster = (): Map<string, BenchRow[]> => {
  const out = new Map<string, BenchRow[]>();
  for (const row of reference.rows as ReferenceRow[]) {
    const key = `${row.organization}|${row.model}`;
    out.set(key, [
      ...(out.get(key) ?? []),
      {
        pk: row.pk,
        stratum: `${row.dueDate}|${row.pk.split("_")[1]}`,
        kind: row.kind,
        forecast: row.forecast,
        outcome: row.outcome,
        imputed: false,
        resolved: true,
      },
    ]);
  }
  return out;
};

const close = (actual: number | null, wanted: number | undefined, what: string) => {
  expect(wanted, what).toBeTypeOf("number");
  expect(actual, what).not.toBeNull();
  expect(Math.abs((actual ?? Number.NaN) - (wanted ?? Number.NaN)), what).toBeLessThan(TOLERANCE);
};

describe("ForecastBench's preparation and imputation on a real round", () => {
  it("imputes 0.5 exactly where a submitted file lacks a question, as Sibyl scores a missing forecast", async () => {
    for (const name of await readdir(path.join(FIXTURE, "input"))) {
      const input = await readJson<ForecastFile<ProcessedRow>>(path.join(FIXTURE, "input", name));
      const output = await readJson<ForecastFile<ProcessedRow>>(path.join(ROUND, name));
      const given = new Set(
        input.forecasts.map((row) => `${row.source}|${row.id}|${row.resolution_date ?? ""}`),
      );
      const keyOf = (row: ProcessedRow) =>
        `${row.source}|${row.id}|${questionKind(row.source) === "market" ? "" : row.resolution_date.slice(0, 10)}`;
      expect(output.forecasts).toHaveLength(596);
      for (const row of output.forecasts) {
        expect(row.imputed, keyOf(row)).toBe(!given.has(keyOf(row)));
        if (row.imputed) expect(row.forecast).toBe(0.5);
      }
    }
  });

  it("gives every file ForecastBench's imputed shares and its 5% verdict", async () => {
    const files = await processedFiles();
    expect(files).toHaveLength(Object.keys(expected.imputation).length);
    for (const { doc } of files) {
      const name = `${doc.organization}|${doc.model}`;
      const theirs = expected.imputation[name];
      expect(theirs, name).toBeDefined();
      const rows = doc.forecasts.flatMap((row) => {
        const kind = questionKind(row.source);
        return kind === null ? [] : [{ kind, imputed: row.imputed, resolved: row.resolved }];
      });
      const ours = imputationCheck(rows);
      // Sibyl reports shares to six decimals.
      expect(Math.abs((ours.overall_pct ?? Number.NaN) - (theirs?.overall_pct ?? 0))).toBeLessThan(
        1e-6,
      );
      expect(Math.abs((ours.market_pct ?? Number.NaN) - (theirs?.market_pct ?? 0))).toBeLessThan(
        1e-6,
      );
      expect(Math.abs((ours.dataset_pct ?? Number.NaN) - (theirs?.dataset_pct ?? 0))).toBeLessThan(
        1e-6,
      );
      const dummy = doc.organization === "ForecastBench";
      expect(ours.over_cutoff && !dummy).toBe(theirs?.dropped);
    }
  });

  it("leaves out of --reference the same files ForecastBench's leaderboard drops", () => {
    expect(expected.dropped_for_imputation).toHaveLength(2);
    expect(reference.skipped.map((reason) => reason.split(":")[0]).sort()).toEqual(
      expected.dropped_for_imputation,
    );
    for (const reason of reference.skipped) expect(reason).toMatch(/more than 5% imputed/);
    expect(reference.files).toBe(3);
  });
});

describe("ForecastBench's leaderboard figures on a real round", () => {
  it("gives each kept forecaster ForecastBench's dataset, market and overall Brier", () => {
    const all = byForecaster();
    expect([...all.keys()].sort()).toEqual(Object.keys(expected.plain).sort());
    for (const [name, figures] of Object.entries(expected.plain)) {
      const means = benchMeans(all.get(name) ?? []);
      close(means.dataset, figures.dataset, `${name} dataset`);
      close(means.market, figures.market, `${name} market`);
      close(means.overall, figures.overall, `${name} overall`);
    }
    // The counts ForecastBench publishes for this round's forecasters (leaderboards/csv/
    // leaderboard_baseline.csv of forecastbench-datasets at 9abcac9f, "Superforecaster median
    // forecast": N dataset 521, N market 57). That file's "Brier" columns (0.131, 0.073, 0.102)
    // are difficulty-adjusted over every round of the leaderboard, not this round's plain Brier;
    // forecastbench-published.test.ts reproduces the plain figures ForecastBench published.
    expect(expected.plain["ForecastBench|Always 0.5"]).toMatchObject({
      n_dataset: 521,
      n_market: 57,
    });
  });

  for (const leaderboard of ["baseline", "tournament"] as const) {
    it(`gives each ${leaderboard} forecaster ForecastBench's difficulty-adjusted Brier and Brier Index`, () => {
      const effects = questionEffects(reference.rows, leaderboard);
      const all = byForecaster();
      const board = expected.leaderboards[leaderboard].models;
      // The baseline leaderboard lists no external submission; the tournament lists the superforecaster.
      expect(Object.keys(board)).toHaveLength(leaderboard === "baseline" ? 2 : 3);
      for (const [name, figures] of Object.entries(board)) {
        const rows = all.get(name) ?? [];
        const adjusted = adjustedMeans(rows, effects);
        close(adjusted.dataset, figures.two_way_fixed_effects_dataset, `${name} dataset`);
        close(adjusted.market, figures.two_way_fixed_effects_market, `${name} market`);
        close(adjusted.overall, figures.two_way_fixed_effects_overall, `${name} overall`);
        close(
          (1 - Math.sqrt(adjusted.overall ?? Number.NaN)) * 100,
          figures.brier_index_overall,
          `${name} Brier Index`,
        );
        expect(adjusted.n_dataset).toBe(figures.n_dataset);
        expect(adjusted.n_market).toBe(figures.n_market);
        expect(adjusted.without_reference).toBe(0);
        // Everyone answered every question: the effects cancel, leaving the plain Brier.
        const plain = benchMeans(rows);
        close(adjusted.overall, plain.overall ?? undefined, `${name} adjusted = plain`);
      }
    });
  }
});
