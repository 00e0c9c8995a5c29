import { percentileInterval, RESAMPLES, SEED, seededRandom } from "../scoring/bootstrap.js";
import { FixedEffectsPanel } from "./fixed-effects.js";
import { fittedCells, type QuestionEffects, type ReferenceRow } from "./question-effects.js";
import type { BenchRow } from "./scores.js";

/** A replicate's fit stops once no effect moves by more than this. */
const REPLICATE_TOLERANCE = 1e-10;

/**
 * Bootstrap draws of ForecastBench's difficulty adjustment (`generate_simulated_leaderboards`):
 * each draw resamples the reference's questions within their due date and source, fits the
 * question effects again on the drawn questions and rescales to Always 0.5 again. Kept for the
 * run's own questions only: their weight and effect in each draw, by the run's question index.
 */
export interface AdjustedReplicates {
  index: Map<string, number>;
  weights: Float64Array[];
  effects: Float64Array[];
  alwaysHalf: { dataset: number | null; market: number | null }[];
}

const strataOf = (pks: string[]): number[][] => {
  const strata = new Map<string, number[]>();
  pks.forEach((pk, i) => {
    // questionPk: `${dueDate}_${source}_${id}…`; neither the date nor a source holds "_".
    const [dueDate, source] = pk.split("_");
    const key = `${dueDate}|${source}`;
    strata.set(key, [...(strata.get(key) ?? []), i]);
  });
  return [...strata.values()];
};

export function adjustedReplicates(
  reference: ReferenceRow[],
  effects: QuestionEffects,
  runPks: Iterable<string>,
  resamples = RESAMPLES,
): AdjustedReplicates {
  const universe = [...effects.dataset.keys(), ...effects.market.keys()];
  const position = new Map(universe.map((pk, i) => [pk, i]));
  const kinds = universe.map((pk) => (effects.dataset.has(pk) ? "dataset" : "market"));
  const outcome = new Float64Array(universe.length);
  for (const row of reference) {
    const i = position.get(row.pk);
    if (i !== undefined) outcome[i] = row.outcome;
  }
  const index = new Map<string, number>();
  for (const pk of runPks) if (position.has(pk) && !index.has(pk)) index.set(pk, index.size);
  const runPositions = [...index.keys()].map((pk) => position.get(pk) ?? 0);

  const panels = (["dataset", "market"] as const).flatMap((kind): RefitPanel[] => {
    if (kind === "market" && effects.marketMethod !== "two_way_fixed_effects") return [];
    const panel = new FixedEffectsPanel(fittedCells(reference, kind, effects.leaderboard));
    const at = panel.questions.map((pk) => position.get(pk) ?? 0);
    const start = Float64Array.from(panel.questions, (pk) => effects[kind].get(pk) ?? 0);
    return [{ panel, at, start }];
  });
  const baseEffects = Float64Array.from(
    universe,
    (pk, i) => effects[kinds[i] === "dataset" ? "dataset" : "market"].get(pk) ?? 0,
  );

  const strata = strataOf(universe);
  const random = seededRandom(SEED);
  const replicates: AdjustedReplicates = { index, weights: [], effects: [], alwaysHalf: [] };
  for (let draw = 0; draw < resamples; draw++) {
    const weights = drawWeights(strata, universe.length, random);
    const drawn = refitEffects(panels, weights, baseEffects);
    replicates.weights.push(Float64Array.from(runPositions, (i) => weights[i] ?? 0));
    replicates.effects.push(Float64Array.from(runPositions, (i) => drawn[i] ?? 0));
    replicates.alwaysHalf.push(alwaysHalfOf(kinds, outcome, weights, drawn));
  }
  return replicates;
}

/** One panel of question effects to fit again in each draw, and where its questions sit. */
interface RefitPanel {
  panel: FixedEffectsPanel;
  at: number[];
  start: Float64Array;
}

/** How many times each question is drawn: as many draws as questions within each stratum. */
function drawWeights(strata: number[][], size: number, random: () => number): Float64Array {
  const weights = new Float64Array(size);
  for (const stratum of strata) {
    for (let k = 0; k < stratum.length; k++) {
      const i = stratum[Math.floor(random() * stratum.length)] ?? 0;
      weights[i] = (weights[i] ?? 0) + 1;
    }
  }
  return weights;
}

/** The question effects fitted again on the drawn questions, the rest as they were. */
function refitEffects(
  panels: RefitPanel[],
  weights: Float64Array,
  baseEffects: Float64Array,
): Float64Array {
  const drawn = baseEffects.slice();
  for (const { panel, at, start } of panels) {
    const solved = panel.solve(
      Float64Array.from(at, (i) => weights[i] ?? 0),
      start,
      REPLICATE_TOLERANCE,
    );
    at.forEach((i, j) => {
      drawn[i] = solved[j] ?? 0;
    });
  }
  return drawn;
}

/** Always 0.5's adjusted Brier in a draw, on dataset and on market questions. */
function alwaysHalfOf(
  kinds: string[],
  outcome: Float64Array,
  weights: Float64Array,
  drawn: Float64Array,
): AdjustedReplicates["alwaysHalf"][number] {
  const half = { dataset: [0, 0], market: [0, 0] };
  kinds.forEach((kind, i) => {
    const w = weights[i] ?? 0;
    const sums = half[kind === "dataset" ? "dataset" : "market"];
    sums[0] = (sums[0] ?? 0) + w * ((0.5 - (outcome[i] ?? 0)) ** 2 - (drawn[i] ?? 0));
    sums[1] = (sums[1] ?? 0) + w;
  });
  const mean = ([sum, n]: number[]) => (n ? (sum ?? 0) / n : null);
  return { dataset: mean(half.dataset), market: mean(half.market) };
}

type Interval = [number, number] | null;

/** 95% percentile intervals of a forecaster's difficulty-adjusted dataset, market and overall. */
export function adjustedIntervals(
  rows: BenchRow[],
  replicates: AdjustedReplicates,
): { dataset: Interval; market: Interval; overall: Interval } {
  const scored = rows.flatMap((row) => {
    const i = replicates.index.get(row.pk);
    return row.resolved && i !== undefined
      ? [{ i, kind: row.kind, brier: (row.forecast - row.outcome) ** 2 }]
      : [];
  });
  const count = replicates.weights.length;
  const series = {
    dataset: new Float64Array(count),
    market: new Float64Array(count),
    overall: new Float64Array(count),
  };
  const complete = { dataset: count > 0, market: count > 0, overall: count > 0 };
  for (let r = 0; r < count; r++) {
    const weights = replicates.weights[r] ?? new Float64Array();
    const effects = replicates.effects[r] ?? new Float64Array();
    const sums = { dataset: [0, 0], market: [0, 0] };
    for (const { i, kind, brier } of scored) {
      const w = weights[i] ?? 0;
      const sum = sums[kind];
      sum[0] = (sum[0] ?? 0) + w * (brier - (effects[i] ?? 0));
      sum[1] = (sum[1] ?? 0) + w;
    }
    const half = replicates.alwaysHalf[r];
    const score = (kind: "dataset" | "market") => {
      const [sum, n] = sums[kind];
      const h = half?.[kind] ?? null;
      return n && h !== null ? (sum ?? 0) / n + 0.25 - h : null;
    };
    const d = score("dataset");
    const m = score("market");
    complete.dataset &&= d !== null;
    complete.market &&= m !== null;
    complete.overall &&= d !== null && m !== null;
    series.dataset[r] = d ?? 0;
    series.market[r] = m ?? 0;
    series.overall[r] = d !== null && m !== null ? (d + m) / 2 : 0;
  }
  const interval = (values: Float64Array, ok: boolean): Interval =>
    ok ? percentileInterval(values) : null;
  return {
    dataset: interval(series.dataset, complete.dataset),
    market: interval(series.market, complete.market),
    overall: interval(series.overall, complete.overall),
  };
}
