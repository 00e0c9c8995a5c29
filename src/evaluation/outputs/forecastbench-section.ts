import type { ForecastBenchFigures, ReferenceInfo } from "../evaluate.js";
import type { Summary } from "../summary.js";
import { escapeXml } from "./escape.js";
import { interval, number, table } from "./html-table.js";

type Figures = Omit<ForecastBenchFigures, "imputation"> & {
  imputation?: ForecastBenchFigures["imputation"];
};

function rowOf(name: string, figures: Figures): string[] {
  const adjusted = figures.difficulty_adjusted;
  const imputation = figures.imputation;
  return [
    name,
    `${number(figures.dataset.brier)} (n=${figures.dataset.n})`,
    `${number(figures.market.brier)} (n=${figures.market.n})`,
    `${number(figures.overall.brier)} (n=${figures.overall.n})`,
    interval(figures.overall.ci),
    adjusted
      ? `${number(adjusted.dataset)} / ${number(adjusted.market)} / ${number(adjusted.overall)}`
      : "–",
    adjusted
      ? `${number(adjusted.brier_index.dataset, 1)} / ${number(adjusted.brier_index.market, 1)} / ${number(adjusted.brier_index.overall, 1)}`
      : "–",
    imputation
      ? `${number(imputation.overall_pct, 1)}%${imputation.over_cutoff ? " OVER 5%" : ""}`
      : "–",
  ];
}

/** ForecastBench's leaderboard figures for every forecaster, when the set has its questions. */
export function forecastBenchSection(summary: Summary): string {
  const rows: string[][] = [];
  for (const [name, scores] of Object.entries(summary.models)) {
    if (scores.forecastbench) rows.push(rowOf(name, scores.forecastbench));
  }
  for (const [name, scores] of Object.entries(summary.ensembles)) {
    if (scores.forecastbench) rows.push(rowOf(name, scores.forecastbench));
  }
  for (const [name, scores] of Object.entries(summary.baselines)) {
    if (scores.forecastbench) rows.push(rowOf(`baseline: ${name}`, scores.forecastbench));
  }
  if (rows.length === 0) return "";
  const flagged = summary.imputation_rule.over_cutoff;
  const reference = summary.reference;
  return `<section id="forecastbench">
<h2>ForecastBench's figures</h2>
<p class="note">As ForecastBench's leaderboard computes them: the mean Brier of resolved dataset questions, of resolved market questions, and overall = their mean (each weighs half, whatever the counts). Interval: 95%, questions resampled within each due date and source. Difficulty-adjusted Brier (dataset / market / overall; lower is better) and Brier Index ((1 − √score) × 100; higher is better) need reference forecasts (--reference). Imputed: the share of rows without a readable forecast, scored 0.5; ForecastBench drops a forecaster over 5%.</p>
${flagged.length > 0 ? `<p class="fail">${escapeXml(`Over ForecastBench's 5% imputation limit: ${flagged.join(", ")}. ForecastBench would leave ${flagged.length === 1 ? "this forecaster" : "these forecasters"} off its leaderboard.`)}</p>` : ""}
${table(["forecaster", "dataset", "market", "overall", "overall 95% interval", "difficulty-adjusted Brier", "Brier Index", "imputed"], rows)}
${reference ? `<p class="note">${escapeXml(referenceNote(reference))}</p>` : ""}
</section>`;
}

/** What the question effects were estimated from, and what was left out of the fit and why. */
function referenceNote(reference: ReferenceInfo): string {
  const parts = [
    `Reference (${reference.leaderboard} leaderboard): ${reference.files} forecast file(s); question effects fitted on ${reference.fitted_on.length} forecaster(s); market effects: ${reference.market_method === "imputed_forecaster_brier" ? "the Imputed Forecaster's Brier" : "two-way fixed effects"}.`,
  ];
  if (reference.too_old.length > 0) {
    parts.push(
      `Out of the fit, released a year or more before the round: ${reference.too_old.join(", ")}.`,
    );
  }
  if (reference.release_date_unknown.length > 0) {
    parts.push(
      `Out of the fit for want of a release date (--reference-models): ${reference.release_date_unknown.join(", ")}.`,
    );
  }
  if (reference.skipped.length > 0) parts.push(`Left out: ${reference.skipped.join("; ")}.`);
  return parts.join(" ");
}
