import { useMemo, useState } from "react";
import type { QuestionForecast, QuestionRow } from "../api/types";
import { score } from "../scores";

type SortKey =
  | "question"
  | "source"
  | "answer_type"
  | "due_date"
  | "resolution_date"
  | "outcome"
  | `score:${string}`;

function forecastText(value: QuestionForecast["forecast"] | undefined): string {
  if (value === null || value === undefined) return "none";
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
  return row.resolved ? String(row.outcome) : `open (${row.outcome})`;
}

function sortValue(row: QuestionRow, key: SortKey): string | number {
  if (key.startsWith("score:"))
    return row.forecasts[key.slice(6)]?.score ?? Number.POSITIVE_INFINITY;
  if (key === "outcome") return row.outcome;
  return (row[key as keyof QuestionRow] as string | null) ?? "";
}

/**
 * Every question of a backtest with each model's forecast, outcome and score, its reasoning and
 * cited sources: filterable by source and answer type, sortable by any column.
 */
export function QuestionTable({ rows, models }: { rows: QuestionRow[]; models: string[] }) {
  const [source, setSource] = useState("");
  const [type, setType] = useState("");
  const [sort, setSort] = useState<{ key: SortKey; ascending: boolean }>({
    key: "source",
    ascending: true,
  });
  const sources = useMemo(() => [...new Set(rows.map((row) => row.source))].sort(), [rows]);
  const types = useMemo(() => [...new Set(rows.map((row) => row.answer_type))].sort(), [rows]);
  const shown = useMemo(() => {
    const kept = rows.filter(
      (row) =>
        (source === "" || row.source === source) && (type === "" || row.answer_type === type),
    );
    return kept.sort((a, b) => {
      const x = sortValue(a, sort.key);
      const y = sortValue(b, sort.key);
      const order =
        typeof x === "number" && typeof y === "number"
          ? Math.sign(x - y) || 0
          : String(x).localeCompare(String(y));
      return sort.ascending ? order : -order;
    });
  }, [rows, source, type, sort]);

  const header = (key: SortKey, label: string, numeric = false) => (
    <th
      key={key}
      scope="col"
      className={numeric ? "num" : undefined}
      aria-sort={sort.key === key ? (sort.ascending ? "ascending" : "descending") : undefined}
    >
      <button
        type="button"
        className="sort"
        onClick={() =>
          setSort((current) => ({
            key,
            ascending: current.key === key ? !current.ascending : true,
          }))
        }
      >
        {label}
      </button>
    </th>
  );

  return (
    <section aria-labelledby="questions-heading">
      <h3 id="questions-heading">Questions</h3>
      <div className="actions">
        <label>
          Source{" "}
          <select value={source} onChange={(event) => setSource(event.target.value)}>
            <option value="">all</option>
            {sources.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label>
          Answer type{" "}
          <select value={type} onChange={(event) => setType(event.target.value)}>
            <option value="">all</option>
            {types.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
        <span className="muted" data-testid="questions-shown">
          {shown.length} of {rows.length} shown
        </span>
      </div>
      <div className="table-wrap">
        <table>
          <caption className="visually-hidden">Forecasts by question</caption>
          <thead>
            <tr>
              {header("question", "Question")}
              {header("source", "Source")}
              {header("answer_type", "Type")}
              {header("due_date", "Due")}
              {header("resolution_date", "Resolves")}
              {header("outcome", "Outcome")}
              <th scope="col" className="num">
                Market
              </th>
              {models.map((model) => (
                <th key={`f-${model}`} scope="col" className="num">
                  {model}
                </th>
              ))}
              {models.map((model) => header(`score:${model}`, `${model} score`, true))}
              <th scope="col">Reasoning</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((row) => (
              <tr key={row.key}>
                <th scope="row">{row.question}</th>
                <td>{row.source}</td>
                <td>{row.answer_type}</td>
                <td>{row.due_date.slice(0, 10)}</td>
                <td>{row.resolution_date ?? "–"}</td>
                <td>{outcomeText(row)}</td>
                <td className="num">
                  {row.market_value === null ? "–" : row.market_value.toFixed(3)}
                </td>
                {models.map((model) => (
                  <td key={`f-${model}`} className="num">
                    {forecastText(row.forecasts[model]?.forecast)}
                  </td>
                ))}
                {models.map((model) => {
                  const forecast = row.forecasts[model];
                  return (
                    <td key={`s-${model}`} className="num">
                      {score(forecast?.score)}
                      {forecast?.scaled_score !== undefined && forecast.scaled_score !== null
                        ? ` (scaled ${forecast.scaled_score.toFixed(3)})`
                        : ""}
                    </td>
                  );
                })}
                <td>
                  <details>
                    <summary>Reasoning</summary>
                    {models.map((model) => (
                      <Reasoning key={model} model={model} forecast={row.forecasts[model]} />
                    ))}
                  </details>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function Reasoning({ model, forecast }: { model: string; forecast: QuestionForecast | undefined }) {
  return (
    <div className="small">
      <strong>{model}</strong>
      <p className="reply">{forecast?.reasoning ?? "No reasoning."}</p>
      {forecast && forecast.citations.length > 0 ? (
        <ul>
          {forecast.citations.map((citation) => (
            <li key={citation.url}>
              <a href={citation.url} rel="noreferrer noopener" target="_blank">
                {citation.title ?? citation.url}
              </a>
              {citation.dates.length > 0 ? ` (${citation.dates.join(", ")})` : ""}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
