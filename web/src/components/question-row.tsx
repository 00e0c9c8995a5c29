import type { QuestionForecast, QuestionRow } from "../api/types";
import { score } from "../scores";

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

export function QuestionRowView({ row, models }: { row: QuestionRow; models: string[] }) {
  return (
    <tr>
      <th scope="row">{row.question}</th>
      <td>{row.source}</td>
      <td>{row.answer_type}</td>
      <td>{row.due_date.slice(0, 10)}</td>
      <td>{row.resolution_date ?? "–"}</td>
      <td>{outcomeText(row)}</td>
      <td className="num">{row.market_value === null ? "–" : row.market_value.toFixed(3)}</td>
      {models.map((model) => (
        <td key={`f-${model}`} className="num">
          {forecastText(row.forecasts[model]?.forecast)}
        </td>
      ))}
      {models.map((model) => (
        <ScoreCell key={`s-${model}`} forecast={row.forecasts[model]} />
      ))}
      <td>
        <details>
          <summary>Reasoning</summary>
          {models.map((model) => (
            <Reasoning key={model} model={model} forecast={row.forecasts[model]} />
          ))}
        </details>
      </td>
    </tr>
  );
}

function ScoreCell({ forecast }: { forecast: QuestionForecast | undefined }) {
  return (
    <td className="num">
      {score(forecast?.score)}
      {forecast?.scaled_score !== undefined && forecast.scaled_score !== null
        ? ` (scaled ${forecast.scaled_score.toFixed(3)})`
        : ""}
    </td>
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
