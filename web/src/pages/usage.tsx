import { type FormEvent, useState } from "react";
import type { Api } from "../api/client";
import { allKeys, models as listModels, type UsageFilter, usage } from "../api/endpoints";
import type { UsageBucket } from "../api/types";
import { LiveRegion, Loading } from "../components/notice";
import { useLoad } from "../components/use-load";
import { download, toCsv } from "../csv";
import { count, dayStart, isoDay, usd } from "../format";
import { AdminOnly, needsAdmin, SECONDS_PER_DAY, utcDayStart } from "./shared";

interface Row {
  day: string;
  model: string;
  key: string;
  requests: number;
  input: number;
  output: number;
  cost: number;
}

function rowsOf(buckets: UsageBucket[], keyNames: Map<string, string>): Row[] {
  return buckets.flatMap((bucket) =>
    bucket.results.map((result) => ({
      day: isoDay(bucket.start_time),
      model: result.model ?? "",
      key:
        result.api_key_id === null
          ? "batch"
          : (keyNames.get(result.api_key_id) ?? result.api_key_id),
      requests: result.num_model_requests,
      input: result.input_tokens,
      output: result.output_tokens,
      cost: result.cost_usd,
    })),
  );
}

export function Usage({ api }: { api: Api }) {
  const [from, setFrom] = useState(isoDay(utcDayStart(6)));
  const [to, setTo] = useState(isoDay(utcDayStart(0)));
  const [model, setModel] = useState("");
  const [keyId, setKeyId] = useState("");
  const [filter, setFilter] = useState<UsageFilter>(() => ({
    start: utcDayStart(6),
    end: utcDayStart(-1),
    groupBy: ["model", "api_key_id"],
  }));
  const [formError, setFormError] = useState<string | null>(null);
  const [choices] = useLoad(async () => {
    const [catalogue, keys] = await Promise.all([listModels(api), allKeys(api).catch(() => [])]);
    return { models: catalogue.data.map((entry) => entry.id), keys };
  }, [api]);
  const [report] = useLoad(() => usage(api, filter), [api, filter]);

  const apply = (event: FormEvent) => {
    event.preventDefault();
    const start = dayStart(from);
    const end = dayStart(to) + SECONDS_PER_DAY;
    if (!(end > start)) {
      setFormError("The end date must be on or after the start date.");
      return;
    }
    setFormError(null);
    setFilter({
      start,
      end,
      groupBy: ["model", "api_key_id"],
      ...(model ? { models: [model] } : {}),
      ...(keyId ? { apiKeyIds: [keyId] } : {}),
    });
  };
  const keyNames = new Map(
    choices.state === "ready"
      ? choices.value.keys.map((key) => [key.id, key.name ?? key.redacted_value])
      : [],
  );
  const rows = report.state === "ready" ? rowsOf(report.value, keyNames) : [];
  const exportCsv = () => {
    const header = [
      "day",
      "model",
      "api_key",
      "requests",
      "input_tokens",
      "output_tokens",
      "cost_usd",
    ];
    const body = rows.map((row) => [
      row.day,
      row.model,
      row.key,
      row.requests,
      row.input,
      row.output,
      row.cost,
    ]);
    download(
      `sibyl-usage-${isoDay(filter.start)}-to-${isoDay(filter.end - 1)}.csv`,
      toCsv([header, ...body]),
    );
  };
  return (
    <div className="stack">
      <section className="card" aria-labelledby="filter-heading">
        <h2 id="filter-heading">Filters</h2>
        <form onSubmit={apply} className="form-grid">
          <div className="field">
            <label htmlFor="usage-from">From (UTC day)</label>
            <input
              id="usage-from"
              type="date"
              required
              value={from}
              onChange={(event) => setFrom(event.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor="usage-to">To (UTC day, included)</label>
            <input
              id="usage-to"
              type="date"
              required
              value={to}
              onChange={(event) => setTo(event.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor="usage-model">Model</label>
            <select
              id="usage-model"
              value={model}
              onChange={(event) => setModel(event.target.value)}
            >
              <option value="">All models</option>
              {choices.state === "ready"
                ? choices.value.models.map((id) => (
                    <option key={id} value={id}>
                      {id}
                    </option>
                  ))
                : null}
            </select>
          </div>
          <div className="field">
            <label htmlFor="usage-key">API key</label>
            <select id="usage-key" value={keyId} onChange={(event) => setKeyId(event.target.value)}>
              <option value="">All keys</option>
              {choices.state === "ready"
                ? choices.value.keys.map((key) => (
                    <option key={key.id} value={key.id}>
                      {key.name ?? key.redacted_value}
                    </option>
                  ))
                : null}
            </select>
          </div>
          <div className="form-actions">
            <button type="submit" className="primary">
              Show usage
            </button>
          </div>
        </form>
        <LiveRegion tone="error">{formError}</LiveRegion>
      </section>
      <section className="card" aria-labelledby="usage-heading">
        <div className="section-head">
          <h2 id="usage-heading">Requests by day, model and key</h2>
          <button type="button" onClick={exportCsv} disabled={rows.length === 0}>
            Export CSV
          </button>
        </div>
        {report.state === "loading" ? <Loading what="usage" /> : null}
        {report.state === "failed" ? (
          needsAdmin(report.error) ? (
            <AdminOnly what="Seeing usage" />
          ) : (
            <LiveRegion tone="error">{report.message}</LiveRegion>
          )
        ) : null}
        {report.state === "ready" ? <UsageTable rows={rows} /> : null}
      </section>
    </div>
  );
}

function UsageTable({ rows }: { rows: Row[] }) {
  if (rows.length === 0)
    return (
      <p role="status" className="muted">
        No requests in this range.
      </p>
    );
  const total = rows.reduce(
    (sum, row) => ({
      requests: sum.requests + row.requests,
      input: sum.input + row.input,
      output: sum.output + row.output,
      cost: sum.cost + row.cost,
    }),
    { requests: 0, input: 0, output: 0, cost: 0 },
  );
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">Usage by day, model and key</caption>
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
        <tbody>
          {rows.map((row) => (
            <tr key={`${row.day} ${row.model} ${row.key}`}>
              <td>{row.day}</td>
              <td>{row.model}</td>
              <td>{row.key}</td>
              <td className="num">{count(row.requests)}</td>
              <td className="num">{count(row.input)}</td>
              <td className="num">{count(row.output)}</td>
              <td className="num">{usd(row.cost)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={3}>
              Total
            </th>
            <td className="num">{count(total.requests)}</td>
            <td className="num">{count(total.input)}</td>
            <td className="num">{count(total.output)}</td>
            <td className="num">{usd(total.cost)}</td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
