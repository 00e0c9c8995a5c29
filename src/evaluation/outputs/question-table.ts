import type { QuestionForecast, QuestionRow } from "../question-rows.js";
import type { Summary } from "../summary.js";
import { escapeXml } from "./escape.js";

const cell = (text: string, sort?: string | number | null): string =>
  `<td${sort === undefined || sort === null ? "" : ` data-sort="${escapeXml(String(sort))}"`}>${escapeXml(text)}</td>`;

function forecastText(value: QuestionForecast["forecast"]): string {
  if (value === null) return "none (imputed)";
  if (typeof value === "number") return value.toFixed(3);
  if (Array.isArray(value)) {
    return value.map((p, i) => `${String.fromCharCode(65 + i)} ${p.toFixed(2)}`).join(", ");
  }
  return `N(${value.mean}, ${value.standard_deviation})`;
}

function outcomeText(row: QuestionRow): string {
  if (row.answer_type === "multiple_choice") {
    return `${String.fromCharCode(65 + row.outcome)}) ${row.options?.[row.outcome] ?? ""}`;
  }
  if (row.answer_type === "binary" && !row.resolved) return `open (${row.outcome})`;
  return String(row.outcome);
}

function details(row: QuestionRow): string {
  const parts = Object.entries(row.forecasts).map(([model, forecast]) => {
    const sources = forecast.citations.map(
      (citation) =>
        `<li><a href="${escapeXml(citation.url)}" rel="noreferrer noopener">${escapeXml(citation.title ?? citation.url)}</a>${citation.dates.length > 0 ? ` (${escapeXml(citation.dates.join(", "))})` : ""}</li>`,
    );
    return `<h4>${escapeXml(model)}</h4><p class="reasoning">${escapeXml(forecast.reasoning ?? "no reasoning")}</p>${sources.length > 0 ? `<ul>${sources.join("")}</ul>` : ""}`;
  });
  return `<td class="why"><details><summary>reasoning</summary>${parts.join("")}</details></td>`;
}

function rowHtml(row: QuestionRow, models: string[]): string {
  const cells = [
    cell(row.question),
    cell(row.source),
    cell(row.answer_type),
    cell(row.due_date.slice(0, 10)),
    cell(row.resolution_date ?? "–"),
    cell(outcomeText(row), row.outcome),
    cell(row.market_value === null ? "–" : row.market_value.toFixed(3), row.market_value),
    ...models.flatMap((model) => {
      const forecast = row.forecasts[model];
      const single = typeof forecast?.forecast === "number" ? forecast.forecast : null;
      const score = forecast?.score ?? null;
      const scaled =
        forecast?.scaled_score === undefined || forecast.scaled_score === null
          ? ""
          : ` (scaled ${forecast.scaled_score.toFixed(3)})`;
      return [
        cell(forecast ? forecastText(forecast.forecast) : "–", single),
        // Unscored (open, or unread continuous) rows sort after every score.
        cell(score === null ? "–" : `${score.toFixed(4)}${scaled}`, score ?? "Infinity"),
      ];
    }),
  ];
  return `<tr data-source="${escapeXml(row.source)}" data-type="${escapeXml(row.answer_type)}">${cells.join("")}${details(row)}</tr>`;
}

const SCRIPT = `
(() => {
  const table = document.getElementById("questions-table");
  const body = table.tBodies[0];
  const source = document.getElementById("filter-source");
  const type = document.getElementById("filter-type");
  const shown = document.getElementById("questions-shown");
  const filter = () => {
    let count = 0;
    for (const row of body.rows) {
      const visible = (source.value === "" || row.dataset.source === source.value) &&
        (type.value === "" || row.dataset.type === type.value);
      row.hidden = !visible;
      if (visible) count += 1;
    }
    shown.textContent = String(count);
  };
  source.addEventListener("change", filter);
  type.addEventListener("change", filter);
  for (const [index, header] of [...table.tHead.rows[0].cells].entries()) {
    const button = header.querySelector("button");
    if (!button) continue;
    button.addEventListener("click", () => {
      const ascending = header.getAttribute("aria-sort") !== "ascending";
      for (const other of table.tHead.rows[0].cells) other.removeAttribute("aria-sort");
      header.setAttribute("aria-sort", ascending ? "ascending" : "descending");
      const key = (row) => {
        const td = row.cells[index];
        const sort = td.dataset.sort;
        return sort === undefined ? td.textContent : Number(sort);
      };
      const rows = [...body.rows].sort((a, b) => {
        const x = key(a);
        const y = key(b);
        const order = typeof x === "number" && typeof y === "number"
          ? (x === y ? 0 : x < y ? -1 : 1)
          : String(x).localeCompare(String(y));
        return ascending ? order : -order;
      });
      body.append(...rows);
    });
  }
  filter();
})();
`;

function options(values: string[]): string {
  return values
    .map((value) => `<option value="${escapeXml(value)}">${escapeXml(value)}</option>`)
    .join("");
}

/** Every question with each model's forecast and score, sortable and filterable in the page. */
export function questionSection(summary: Summary): string {
  const rows = summary.questions;
  if (rows.length === 0) return "";
  const models = Object.keys(summary.models);
  const headers = [
    "question",
    "source",
    "type",
    "due",
    "resolution date",
    "outcome",
    "market (freeze)",
    ...models.flatMap((model) => [`${model} forecast`, `${model} score`]),
  ];
  const head = headers
    .map((header) => `<th scope="col"><button type="button">${escapeXml(header)}</button></th>`)
    .join("");
  const sources = [...new Set(rows.map((row) => row.source))].sort();
  const types = [...new Set(rows.map((row) => row.answer_type))].sort();
  return `<section id="questions">
<h2>Questions</h2>
<p class="note">One row per question and resolution date. Score: Brier for binary questions, multiclass Brier for multiple choice, CRPS (and CRPS over |outcome|) for continuous; lower is better; unreadable forecasts are scored as imputed. Click a heading to sort.</p>
<p><label>Source <select id="filter-source"><option value="">all</option>${options(sources)}</select></label>
<label>Answer type <select id="filter-type"><option value="">all</option>${options(types)}</select></label>
<span class="note"><span id="questions-shown">${rows.length}</span> of ${rows.length} shown</span></p>
<div class="wide"><table id="questions-table"><thead><tr>${head}<th scope="col">reasoning and sources</th></tr></thead><tbody>
${rows.map((row) => rowHtml(row, models)).join("\n")}
</tbody></table></div>
<script>${SCRIPT}</script>
</section>`;
}
