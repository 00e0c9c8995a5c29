import { count, usd } from "../format";
import { totalOf, type UsageRow, type UsageTotal } from "./usage-rows";

export function UsageTable({ rows }: { rows: UsageRow[] }) {
  if (rows.length === 0)
    return (
      <p role="status" className="muted">
        No requests in this range.
      </p>
    );
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">Usage by day, model and key</caption>
        <UsageHead />
        <tbody>
          {rows.map((row) => (
            <tr key={`${row.day} ${row.model} ${row.key}`}>
              <td>{row.day}</td>
              <td>{row.model}</td>
              <td>{row.key}</td>
              <UsageCounts of={row} />
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={3}>
              Total
            </th>
            <UsageCounts of={totalOf(rows)} />
          </tr>
        </tfoot>
      </table>
    </div>
  );
}

function UsageHead() {
  return (
    <thead>
      <tr>
        <th scope="col">Day</th>
        <th scope="col">Model</th>
        <th scope="col">Key</th>
        <th scope="col" className="num">
          Requests
        </th>
        <th scope="col" className="num">
          Input tokens
        </th>
        <th scope="col" className="num">
          Output tokens
        </th>
        <th scope="col" className="num">
          Cost
        </th>
      </tr>
    </thead>
  );
}

function UsageCounts({ of }: { of: UsageTotal }) {
  return (
    <>
      <td className="num">{count(of.requests)}</td>
      <td className="num">{count(of.input)}</td>
      <td className="num">{count(of.output)}</td>
      <td className="num">{usd(of.cost)}</td>
    </>
  );
}
