import type { QuestionRow } from "../api/types";
import { QuestionHead } from "./question-head";
import { QuestionRowView } from "./question-row";
import { useQuestionView } from "./question-view";

/**
 * Every question of a backtest with each model's forecast, outcome and score, its reasoning and
 * cited sources: filterable by source and answer type, sortable by any column.
 */
export function QuestionTable({ rows, models }: { rows: QuestionRow[]; models: string[] }) {
  const view = useQuestionView(rows);
  return (
    <section aria-labelledby="questions-heading">
      <h3 id="questions-heading">Questions</h3>
      <div className="actions">
        <FilterSelect
          label="Source"
          value={view.source}
          values={view.sources}
          onChange={view.setSource}
        />
        <FilterSelect
          label="Answer type"
          value={view.type}
          values={view.types}
          onChange={view.setType}
        />
        <span className="muted" data-testid="questions-shown">
          {view.shown.length} of {rows.length} shown
        </span>
      </div>
      <div className="table-wrap">
        <table>
          <caption className="visually-hidden">Forecasts by question</caption>
          <QuestionHead models={models} sort={view.sort} sortBy={view.sortBy} />
          <tbody>
            {view.shown.map((row) => (
              <QuestionRowView key={row.key} row={row} models={models} />
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function FilterSelect(props: {
  label: string;
  value: string;
  values: string[];
  onChange: (value: string) => void;
}) {
  return (
    <label>
      {props.label}{" "}
      <select value={props.value} onChange={(event) => props.onChange(event.target.value)}>
        <option value="">all</option>
        {props.values.map((value) => (
          <option key={value} value={value}>
            {value}
          </option>
        ))}
      </select>
    </label>
  );
}
