import type { Summary } from "../summary.js";
import { escapeXml } from "./escape.js";
import { forecastBenchSection } from "./forecastbench-section.js";
import { heldOutCalibrationSection } from "./held-out-calibration-section.js";
import { interval, number, percent, table } from "./html-table.js";
import { questionSection } from "./question-table.js";

const STYLE = `
body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 72rem; color: #222; }
h1 { font-size: 1.5rem; } h2 { font-size: 1.15rem; margin-top: 2rem; }
table { border-collapse: collapse; margin: 0.5rem 0; }
th, td { border: 1px solid #ccc; padding: 0.3rem 0.6rem; text-align: right; }
th:first-child, td:first-child { text-align: left; }
th { background: #f2f2f2; }
.pass { color: #17692a; font-weight: bold; } .fail { color: #b00020; font-weight: bold; }
.note { color: #555; font-size: 0.9rem; }
figure { margin: 0.5rem 0; } figure svg { max-width: 100%; height: auto; }
.wide { overflow-x: auto; } th button { all: unset; cursor: pointer; font-weight: bold; }
th[aria-sort="ascending"] button::after { content: " ▲"; }
th[aria-sort="descending"] button::after { content: " ▼"; }
#questions-table td { vertical-align: top; } #questions-table td:first-child { min-width: 18rem; }
.why details { max-width: 28rem; text-align: left; } .reasoning { white-space: pre-wrap; }
`;

const SCORE_COLUMNS = [
  "forecaster",
  "n (binary)",
  "pooled Brier",
  "95% interval",
  "log score",
  "ECE",
  "parse rate (first reply)",
  "parse rate (after re-asks)",
  "re-asked",
  "imputed",
  "cost",
];

function scoreTable(summary: Summary): string {
  const rows: string[][] = [];
  for (const [model, scores] of Object.entries(summary.models)) {
    rows.push([
      model,
      String(scores.n),
      number(scores.pooled_brier),
      interval(scores.pooled_brier_ci),
      number(scores.log_score),
      number(scores.ece),
      percent(scores.raw_parse_rate),
      percent(scores.parse_rate),
      String(scores.re_asked),
      String(scores.imputed),
      `$${scores.cost_usd.toFixed(4)}`,
    ]);
  }
  for (const [name, scores] of Object.entries(summary.ensembles)) {
    rows.push([
      name,
      String(scores.n),
      number(scores.pooled_brier),
      interval(scores.pooled_brier_ci),
      number(scores.log_score),
      number(scores.ece),
      "–",
      "–",
      "–",
      String(scores.imputed),
      "–",
    ]);
  }
  for (const [name, scores] of Object.entries(summary.baselines)) {
    rows.push([
      `baseline: ${name}`,
      String(scores.n),
      number(scores.pooled_brier),
      interval(scores.pooled_brier_ci),
      number(scores.log_score),
      "–",
      "–",
      "–",
      "–",
      "–",
      "–",
    ]);
  }
  return table(SCORE_COLUMNS, rows);
}

function otherTypes(summary: Summary): string {
  return [choiceSection(summary), continuousSection(summary)]
    .filter((part) => part !== "")
    .join("\n");
}

/** The models' scores, then the ensembles': the forecasters with scores of every answer type. */
function modelsAndEnsembles(summary: Summary) {
  return [...Object.entries(summary.models), ...Object.entries(summary.ensembles)];
}

function choiceSection(summary: Summary): string {
  const choice: string[][] = [];
  for (const [model, scores] of modelsAndEnsembles(summary)) {
    const mc = scores.multiple_choice;
    if (mc) {
      choice.push([
        model,
        String(mc.n),
        number(mc.brier),
        interval(mc.brier_ci),
        number(mc.log_score),
        String(mc.imputed),
      ]);
    }
  }
  const uniform = summary.baselines["always_0.5"]?.multiple_choice;
  if (uniform) {
    choice.push([
      "baseline: uniform",
      String(uniform.n),
      number(uniform.brier),
      interval(uniform.brier_ci),
      number(uniform.log_score),
      "–",
    ]);
  }
  if (choice.length === 0) return "";
  return [
    "<h2>Multiple choice</h2>",
    table(["forecaster", "n", "multiclass Brier", "95% interval", "log score", "imputed"], choice),
  ].join("\n");
}

function continuousSection(summary: Summary): string {
  const continuous: string[][] = [];
  for (const [model, scores] of modelsAndEnsembles(summary)) {
    const c = scores.continuous;
    if (c) {
      continuous.push([
        model,
        String(c.n),
        number(c.crps),
        interval(c.crps_ci),
        number(c.scaled_crps),
        number(c.log_score),
        String(c.missing),
      ]);
    }
  }
  if (continuous.length === 0) return "";
  return [
    "<h2>Continuous</h2>",
    '<p class="note">CRPS is in the question\'s own units; CRPS / |outcome| (1 for an outcome of 0) compares questions of any scale. Lower is better for both.</p>',
    table(
      [
        "forecaster",
        "n",
        "CRPS",
        "95% interval",
        "CRPS / |outcome|",
        "Gaussian log score",
        "unread",
      ],
      continuous,
    ),
  ].join("\n");
}

function sourceTable(summary: Summary): string {
  const models = Object.keys(summary.models);
  const sources = [
    ...new Set(Object.values(summary.models).flatMap((scores) => Object.keys(scores.by_source))),
  ].sort();
  if (sources.length === 0) return "";
  const rows = sources.map((source) => [
    source,
    ...models.map((model) => {
      const entry = summary.models[model]?.by_source[source];
      return entry ? `${number(entry.brier)} (n=${entry.n})` : "–";
    }),
  ]);
  return `<section id="by-source">\n<h2>Brier by source</h2>\n${table(["source", ...models], rows)}\n</section>`;
}

function leakSection(summary: Summary): string {
  const check = summary.leak_check;
  const verdict = check.ok
    ? '<p class="pass">Leak check passed.</p>'
    : '<p class="fail">Leak check FAILED.</p>';
  const lines = [
    `<p>${escapeXml(check.statement)}</p>`,
    verdict,
    table(
      ["check", "count"],
      [
        ["request lines checked (as stored by the endpoint)", String(check.requests.lines)],
        ["without prediction_date", String(check.requests.missing_prediction_date)],
        ["without answer_type", String(check.requests.missing_answer_type)],
        [
          "prediction_date after the due date",
          String(check.requests.prediction_date_after_due_date),
        ],
        [
          "resolved before the prediction date (not scored)",
          String(check.resolved_before_prediction_date.count),
        ],
        [
          "cited sources dated after the prediction date",
          check.research ? String(check.research.leaks) : "research off",
        ],
      ],
    ),
  ];
  for (const warning of check.knowledge_cutoff_warnings) {
    lines.push(
      `<p class="fail">${escapeXml(`${warning.model}: knowledge cutoff ${warning.knowledge_cutoff} is after the prediction date of ${warning.requests_before_cutoff} request(s): the model may know the answers.`)}</p>`,
    );
  }
  return lines.join("\n");
}

/** The backtest as one self-contained page: no scripts, styles or images from elsewhere. */
export function reportHtml(summary: Summary, svg: string): string {
  const set = summary.question_set;
  const skipped = Object.entries(set.skipped)
    .filter(([, count]) => count > 0)
    .map(([reason, count]) => `${reason}: ${count}`)
    .join(", ");
  const pairs = summary.paired_differences.map((pair) => [
    `${pair.a} − ${pair.b}`,
    String(pair.n),
    number(pair.brier_difference),
    interval(pair.ci),
  ]);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Sibyl backtest: ${escapeXml(set.name)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>Backtest: ${escapeXml(set.name)}</h1>
<p class="note">${escapeXml(`${set.format} · ${set.questions} questions · ${set.requests_per_model} requests per model · ${summary.cases.scored} resolved cases scored · ${summary.cases.unresolved} unresolved · endpoint ${summary.run.endpoint} · samples ${summary.run.samples} (${summary.run.aggregate}) · research ${summary.run.research ? "on" : "off"}`)}</p>
${skipped ? `<p class="note">${escapeXml(`Not asked: ${skipped}.`)}</p>` : ""}
<section id="leak-check">
<h2>Leak check</h2>
${leakSection(summary)}
</section>
${forecastBenchSection(summary)}
<section id="scores">
<h2>Binary scores, pooled over every case</h2>
<p class="note">n counts binary forecasts only. Pooled Brier: the mean over every resolved binary case, dataset questions (asked once per resolution date) and markets alike; it is not ForecastBench's overall, which weighs the two kinds equally (above). Brier and ECE: lower is better. Log score: mean natural log of the probability given to the outcome (kept within [0.001, 0.999] inside the log only); higher is better. Forecasts are scored as the model gave them. Parse rate (first reply): answers the model gave in its own reply; after re-asks: including those the endpoint had to ask for again. Unreadable forecasts are scored as 0.5 and counted as imputed. Intervals: bootstrap 95%.</p>
${scoreTable(summary)}
</section>
<section id="calibration-plot">
<h2>Calibration</h2>
<figure id="calibration">
${svg}
</figure>
</section>
${heldOutCalibrationSection(summary)}
${otherTypes(summary)}
${pairs.length > 0 ? `<h2>Paired differences (Brier, a − b)</h2>\n${table(["pair", "n", "difference", "95% interval"], pairs)}` : ""}
${sourceTable(summary)}
${questionSection(summary)}
${summary.warnings.length > 0 ? `<h2>Warnings</h2>\n<ul>${summary.warnings.map((w) => `<li>${escapeXml(w)}</li>`).join("")}</ul>` : ""}
</body>
</html>
`;
}
