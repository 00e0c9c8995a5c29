import { mean } from "../scoring/bootstrap.js";
import { brierScore } from "../scoring/rules.js";
import { questionFixedEffects, type ScoreCell } from "./fixed-effects.js";
import type { ForecasterIdentity, Leaderboard } from "./reference-models.js";
import type { QuestionKind } from "./sources.js";

/** A reference forecaster's resolved row, from ForecastBench's forecast files. */
export interface ReferenceRow extends ForecasterIdentity {
  /** `organization/model_organization/model`, ForecastBench's `model_pk`. */
  forecaster: string;
  organization: string;
  modelOrganization: string;
  model: string;
  /** The round's forecast due date, YYYY-MM-DD. */
  dueDate: string;
  pk: string;
  kind: QuestionKind;
  forecast: number;
  outcome: number;
}

/** ForecastBench fits on its LLMs released less than this many days before the due date. */
export const MODEL_RELEASE_DAYS_CUTOFF = 365;

/** ForecastBench's own organization name in its forecast files. */
export const BENCHMARK_ORGANIZATION = "ForecastBench";

/**
 * Forecasters ForecastBench leaves out of the fit (`two_way_fixed_effects`): the constant and
 * random baselines, the Imputed Forecaster (it would count the crowd twice) and its LLM crowd
 * ensembles; external submissions are left out too.
 */
const LEFT_OUT_OF_FIT = new Set([
  "Always 0",
  "Always 1",
  "Always 0.5",
  "Random Uniform",
  "Imputed Forecaster",
  "LLM Crowd (gpt-4o, claude-3.5-sonnet, gemini-1.5-pro) geometric mean log odds with news",
  "LLM Crowd (gpt-4o, claude-3.5-sonnet, gemini-1.5-pro) geometric mean with news",
  "LLM Crowd (gpt-4o, claude-3.5-sonnet, gemini-1.5-pro) median with news",
]);

export const IMPUTED_FORECASTER = "Imputed Forecaster";

export type MarketMethod = "imputed_forecaster_brier" | "two_way_fixed_effects";

export interface QuestionEffects {
  dataset: Map<string, number>;
  market: Map<string, number>;
  /** Tournament leaderboard: a market question's effect is the Imputed Forecaster's Brier. */
  marketMethod: MarketMethod;
  /** Always 0.5's mean of (Brier − effect) over every reference question, before rescaling. */
  alwaysHalf: { dataset: number | null; market: number | null };
  leaderboard: Leaderboard;
  /** The forecasters the effects were fitted on. */
  fittedOn: string[];
  /** ForecastBench LLMs whose rows were left out of the fit: released too long before a round. */
  tooOld: string[];
  /** ForecastBench LLMs left out for want of a release date (see --reference-models). */
  releaseDateUnknown: string[];
}

const brier = (row: { forecast: number; outcome: number }) => brierScore(row.forecast, row.outcome);

const DAY_MS = 86_400_000;

/** Days from the model's release to the round's due date; null without a release date. */
function modelAge(row: ReferenceRow): number | null {
  if (row.releaseDate === null) return null;
  return Math.round((Date.parse(row.dueDate) - Date.parse(row.releaseDate)) / DAY_MS);
}

/**
 * The rows ForecastBench fits question effects on (`two_way_fixed_effects`): its own forecasters
 * but the ones left out, and of its LLMs only rounds less than a year after the model's release
 * (`model_age_at_due_date < MODEL_RELEASE_DAYS_CUTOFF`; an LLM without a known release date is
 * left out, as a missing age fails that test).
 */
function fitted(rows: ReferenceRow[]): ReferenceRow[] {
  return rows.filter((row) => {
    if (row.external || LEFT_OUT_OF_FIT.has(row.model)) return false;
    if (row.modelOrganization === BENCHMARK_ORGANIZATION) return true;
    const age = modelAge(row);
    return age !== null && age < MODEL_RELEASE_DAYS_CUTOFF;
  });
}

/** The cells of one kind of question that a leaderboard's fit uses. */
export function fittedCells(
  allRows: ReferenceRow[],
  kind: QuestionKind,
  leaderboard: Leaderboard,
): ScoreCell[] {
  return fitted(
    allRows.filter((row) => row.kind === kind && row.leaderboards.includes(leaderboard)),
  ).map((row) => ({ forecaster: row.forecaster, question: row.pk, brier: brier(row) }));
}

/** Always 0.5 answers every question: its pre-rescaling score over the questions with effects. */
function alwaysHalf(rows: ReferenceRow[], effects: Map<string, number>): number | null {
  const outcomes = new Map(rows.map((row) => [row.pk, row.outcome]));
  return mean([...effects].map(([pk, effect]) => (0.5 - (outcomes.get(pk) ?? 0.5)) ** 2 - effect));
}

/** ForecastBench's LLM forecasters whose rows the release-date rule keeps out of the fit. */
function releaseRule(rows: ReferenceRow[]): { tooOld: string[]; unknown: string[] } {
  const tooOld = new Set<string>();
  const unknown = new Set<string>();
  for (const row of rows) {
    if (row.external || row.modelOrganization === BENCHMARK_ORGANIZATION) continue;
    const age = modelAge(row);
    if (age === null) unknown.add(row.forecaster);
    else if (age >= MODEL_RELEASE_DAYS_CUTOFF) tooOld.add(`${row.forecaster} (${row.dueDate})`);
  }
  return { tooOld: [...tooOld].sort(), unknown: [...unknown].sort() };
}

/**
 * The question effects of ForecastBench's difficulty-adjusted Brier on one of its leaderboards,
 * from reference forecast files (its `make_leaderboard`): only that leaderboard's forecasters
 * count; dataset questions by two-way fixed effects; market questions by the Imputed
 * Forecaster's Brier on the tournament leaderboard (by two-way fixed effects when the reference
 * lacks that forecaster) and by two-way fixed effects on the baseline leaderboard.
 */
export function questionEffects(
  allRows: ReferenceRow[],
  leaderboard: Leaderboard = "tournament",
): QuestionEffects {
  const rows = allRows.filter((row) => row.leaderboards.includes(leaderboard));
  const datasetRows = rows.filter((row) => row.kind === "dataset");
  const marketRows = rows.filter((row) => row.kind === "market");
  const dataset = questionFixedEffects(fittedCells(allRows, "dataset", leaderboard));
  const imputed =
    leaderboard === "tournament"
      ? marketRows.filter(
          (row) => row.organization === BENCHMARK_ORGANIZATION && row.model === IMPUTED_FORECASTER,
        )
      : [];
  const marketMethod: MarketMethod =
    imputed.length > 0 ? "imputed_forecaster_brier" : "two_way_fixed_effects";
  const rule = releaseRule(rows);
  const market =
    marketMethod === "imputed_forecaster_brier"
      ? new Map(imputed.map((row) => [row.pk, brier(row)]))
      : questionFixedEffects(fittedCells(allRows, "market", leaderboard));
  return {
    dataset,
    market,
    marketMethod,
    alwaysHalf: {
      dataset: alwaysHalf(datasetRows, dataset),
      market: alwaysHalf(marketRows, market),
    },
    leaderboard,
    fittedOn: [...new Set(fitted(rows).map((row) => row.forecaster))].sort(),
    tooOld: rule.tooOld,
    releaseDateUnknown: rule.unknown,
  };
}
