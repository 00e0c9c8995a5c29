import type { ScoreGroup } from "../api/types";
import { count } from "../format";
import { score } from "../scores";

interface ScoreTableProps {
  groups: ScoreGroup[];
  /** What a group is: model, API key or tag. */
  label: string;
  /** The group's name as shown (an API key's id becomes its name). */
  nameOf: (group: string | null) => string;
  plotted: string | null;
  onPlot: (group: string | null) => void;
}

/** Each group's scores on resolved questions, by answer type. */
export function ScoreTable({ groups, label, nameOf, plotted, onPlot }: ScoreTableProps) {
  if (groups.length === 0)
    return (
      <p role="status" className="muted">
        No resolved forecasts yet.
      </p>
    );
  return (
    <div className="table-wrap score-table">
      <table>
        <caption className="visually-hidden">Scores by {label}</caption>
        <ScoreHead label={label} />
        <tbody>
          {groups.map((entry) => (
            <ScoreRow
              key={entry.group ?? ""}
              entry={entry}
              name={nameOf(entry.group)}
              selected={entry.group === plotted}
              onPlot={onPlot}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function ScoreHead({ label }: { label: string }) {
  return (
    <thead>
      <tr>
        <th scope="col">{label}</th>
        <th scope="col" className="num">
          Binary n
        </th>
        <th scope="col" className="num">
          Brier
        </th>
        <th scope="col" className="num">
          Log score
        </th>
        <th scope="col" className="num">
          Multiple choice n
        </th>
        <th scope="col" className="num">
          Brier (0–2)
        </th>
        <th scope="col" className="num">
          Continuous n
        </th>
        <th scope="col" className="num">
          CRPS
        </th>
        <th scope="col">
          <span className="visually-hidden">Calibration</span>
        </th>
      </tr>
    </thead>
  );
}

function ScoreRow(props: {
  entry: ScoreGroup;
  name: string;
  selected: boolean;
  onPlot: (group: string | null) => void;
}) {
  const { entry, name, selected } = props;
  return (
    <tr className={selected ? "selected" : ""}>
      <th scope="row">{name}</th>
      <td className="num">{count(entry.binary.n)}</td>
      <td className="num">{score(entry.binary.brier)}</td>
      <td className="num">{score(entry.binary.log_score)}</td>
      <td className="num">{count(entry.multiple_choice.n)}</td>
      <td className="num">{score(entry.multiple_choice.brier)}</td>
      <td className="num">{count(entry.continuous.n)}</td>
      <td className="num">{score(entry.continuous.crps)}</td>
      <td>
        <button
          type="button"
          aria-label={`Plot the calibration of ${name}`}
          aria-pressed={selected}
          disabled={entry.binary.calibration.length === 0}
          onClick={() => props.onPlot(entry.group)}
        >
          Plot
        </button>
      </td>
    </tr>
  );
}
