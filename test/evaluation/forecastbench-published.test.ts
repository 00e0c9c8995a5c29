// A figure ForecastBench published, reproduced from the forecasts it was computed from: the
// "Superforecaster median forecast" row of its human leaderboard for the 2024-07-21 round
// (forecastbench-datasets `leaderboards/csv/human_leaderboard_overall.csv` at commit 427da6d9,
// written 2025-09-05 by `src/leaderboard/main.py` of forecastbench at e09cead). That median is
// the plain median, per question and resolution date, of every superforecaster's forecast in
// `human_super_individual.json`; scored against the resolution set published the same night
// (commit 27f5838a), it gives the row's plain Brier scores. published/expected.json holds what
// ForecastBench's own code of that time (`check_and_prepare_forecast_file`, `score_forecasts`,
// `get_leaderboard_entry`) computes from that median. The fixture's README says how.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { aggregateForecasts } from "../../src/evaluation/aggregate.js";
import { benchRows } from "../../src/evaluation/forecastbench/rows.js";
import {
  type BenchRow,
  benchMeans,
  benchScores,
} from "../../src/evaluation/forecastbench/scores.js";
import { loadQuestionSet } from "../../src/evaluation/question-sets/load.js";
import type { EvalItem, Forecast } from "../../src/evaluation/types.js";

const FIXTURE = path.join(import.meta.dirname, "fixtures", "forecastbench-real-2024-07-21");
const PUBLISHED = path.join(FIXTURE, "published");
const QUESTIONS = path.join(FIXTURE, "run", "2024-07-21-human.json");
const TOLERANCE = 1e-9;

interface Group {
  source: string;
  id: string;
  resolution_date: string | null;
  forecasts: number[];
}

interface OldEntry {
  data: number;
  n_data: number;
  market_resolved: number;
  n_market_resolved: number;
  market_unresolved: number;
  n_market_unresolved: number;
  market_overall: number;
  n_market_overall: number;
  overall_resolved: number;
  n_overall_resolved: number;
  overall: number;
  n_overall: number;
  pct_imputed: number;
}

const readJson = async <T>(file: string): Promise<T> => JSON.parse(await readFile(file, "utf8"));

const groups: Group[] = (
  await readFile(path.join(PUBLISHED, "2024-07-21.superforecasters.by-question.jsonl"), "utf8")
)
  .split("\n")
  .filter((line) => line !== "")
  .map((line) => JSON.parse(line) as Group);

/** Sibyl's median of each question's (and date's) superforecaster forecasts. */
const medianOf = new Map<string, Forecast | null>(
  groups.map((group) => [
    `${group.source}|${group.id}|${group.resolution_date ?? ""}`,
    aggregateForecasts(
      group.forecasts.map((probability) => ({ type: "binary", probability })),
      "median",
    ),
  ]),
);

const medianRows = async (resolutionSet: string): Promise<BenchRow[]> => {
  const set = await loadQuestionSet(QUESTIONS, resolutionSet, null);
  const items = new Map<string, EvalItem>(set.items.map((item) => [item.key, item]));
  return benchRows(
    set.resolutions,
    items,
    (item) =>
      medianOf.get(`${item.source}|${item.questionId}|${item.resolutionDate ?? ""}`) ?? null,
  );
};

/** The published CSV's superforecaster row, by column header. */
async function publishedRow(): Promise<Map<string, string>> {
  const [header, row] = (
    await readFile(path.join(PUBLISHED, "human_leaderboard_overall.2025-09-05.csv"), "utf8")
  )
    .trim()
    .split("\n");
  // No cell is quoted: the interval "[0.078 0.119]" holds no comma.
  const names = (header ?? "").split(",");
  const cells = (row ?? "").split(",");
  return new Map(names.map((name, i) => [name, cells[i] ?? ""]));
}

const meanBrier = (rows: BenchRow[]): number =>
  rows.reduce((sum, row) => sum + (row.forecast - row.outcome) ** 2, 0) / rows.length;

const close = (actual: number | null, wanted: number, what: string) => {
  expect(actual, what).not.toBeNull();
  expect(Math.abs((actual ?? Number.NaN) - wanted), what).toBeLessThan(TOLERANCE);
};

/** Equal to the published figure as the leaderboard printed it, to three decimals. */
const printed = (actual: number | null, cell: string | undefined, what: string) => {
  expect(cell, what).toMatch(/^\d\.\d{1,3}$/);
  expect((actual ?? Number.NaN).toFixed(3), what).toBe(Number(cell).toFixed(3));
};

describe("ForecastBench's published superforecaster median, from the superforecasters' forecasts", () => {
  it("gives the human leaderboard's dataset, market and overall Brier of 2025-09-05", async () => {
    const rows = await medianRows(
      path.join(PUBLISHED, "2024-07-21_resolution_set.2025-09-05.json"),
    );
    const old = (await readJson<Record<string, OldEntry>>(path.join(PUBLISHED, "expected.json")))[
      "Superforecaster median forecast"
    ];
    if (old === undefined) throw new Error("published/expected.json lacks the median's entry");
    const published = await publishedRow();
    expect(published.get("Model")).toBe("Superforecaster median forecast");

    // Every row of the round has a median: nothing imputed, as the leaderboard's 0% says.
    expect(rows.filter((row) => row.imputed)).toEqual([]);
    expect(published.get("Pct. Imputed")).toBe("0%");

    // Sibyl's figures are the leaderboard's resolved ones: its "Overall Resolved Score" is the
    // equal-weight mean of the dataset and resolved-market means, as ForecastBench's overall is now.
    const scores = benchScores(rows);
    const means = benchMeans(rows);
    close(means.dataset, old.data, "dataset");
    close(means.market, old.market_resolved, "market (resolved)");
    close(means.overall, old.overall_resolved, "overall (resolved)");
    expect([scores.dataset.n, scores.market.n, scores.overall.n]).toEqual([
      old.n_data,
      old.n_market_resolved,
      old.n_overall_resolved,
    ]);
    printed(means.dataset, published.get("Dataset Score (N=521)"), "dataset");
    printed(means.market, published.get("Market Score (resolved) (N=54)"), "market");
    printed(means.overall, published.get("Overall Resolved Score (N=575)"), "overall");

    // The leaderboard of that time also scored markets still open against their latest value.
    const open = rows.filter((row) => row.kind === "market" && !row.resolved);
    const markets = rows.filter((row) => row.kind === "market");
    expect([open.length, markets.length]).toEqual([old.n_market_unresolved, old.n_market_overall]);
    close(meanBrier(open), old.market_unresolved, "market (unresolved)");
    close(meanBrier(markets), old.market_overall, "market (overall)");
    close(((means.dataset ?? 0) + meanBrier(markets)) / 2, old.overall, "overall");
    printed(meanBrier(open), published.get("Market Score (unresolved) (N=22)"), "open markets");
    printed(meanBrier(markets), published.get("Market Score (overall) (N=76)"), "all markets");
    printed(
      ((means.dataset ?? 0) + meanBrier(markets)) / 2,
      published.get("Overall Score (N=597)"),
      "overall with open markets",
    );
  });

  it("is the median file of reference/, scored on the later resolution set", async () => {
    const rows = await medianRows(path.join(FIXTURE, "run", "2024-07-21_resolution_set.json"));
    const { plain } = await readJson<{
      plain: Record<string, { dataset: number; market: number; overall: number }>;
    }>(path.join(FIXTURE, "expected.json"));
    const figures = plain["ForecastBench|Superforecaster median forecast"];
    if (figures === undefined) throw new Error("expected.json lacks the median's figures");
    const means = benchMeans(rows);
    close(means.dataset, figures.dataset, "dataset");
    close(means.market, figures.market, "market");
    close(means.overall, figures.overall, "overall");
  });
});
