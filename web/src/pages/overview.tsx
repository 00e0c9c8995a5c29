import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { Api } from "../api/client";
import { balance, usage } from "../api/endpoints";
import type { UsageBucket } from "../api/types";
import { LiveRegion, Loading } from "../components/notice";
import { useLoad } from "../components/use-load";
import { count, day, usd } from "../format";
import { AdminOnly, needsAdmin, SECONDS_PER_DAY, utcDayStart } from "./shared";

const DAYS = 30;
/** recharts styles its tooltip in place; these follow the light or dark theme. */
const TOOLTIP_STYLE = {
  background: "var(--surface)",
  borderColor: "var(--border)",
  color: "var(--text)",
};

interface ModelTotal {
  model: string;
  requests: number;
  tokens: number;
  cost: number;
}

function topModels(buckets: UsageBucket[]): ModelTotal[] {
  const totals = new Map<string, ModelTotal>();
  for (const bucket of buckets) {
    for (const result of bucket.results) {
      const model = result.model ?? "unknown";
      const total = totals.get(model) ?? { model, requests: 0, tokens: 0, cost: 0 };
      total.requests += result.num_model_requests;
      total.tokens += result.input_tokens + result.output_tokens;
      total.cost += result.cost_usd;
      totals.set(model, total);
    }
  }
  return [...totals.values()]
    .sort((a, b) => b.cost - a.cost || b.requests - a.requests)
    .slice(0, 5);
}

export function Overview({ api }: { api: Api }) {
  const [funds] = useLoad(() => balance(api), [api]);
  const [spend] = useLoad(
    () => usage(api, { start: utcDayStart(DAYS - 1), end: utcDayStart(-1), groupBy: ["model"] }),
    [api],
  );
  return (
    <div className="stack">
      <section className="card" aria-labelledby="balance-heading">
        <h2 id="balance-heading">Balance</h2>
        {funds.state === "loading" ? <Loading what="the balance" /> : null}
        {funds.state === "failed" ? <LiveRegion tone="error">{funds.message}</LiveRegion> : null}
        {funds.state === "ready" ? (
          <p className="big-number" data-testid="balance">
            {usd(funds.value.balance_dollars)}
          </p>
        ) : null}
      </section>
      <section className="card" aria-labelledby="spend-heading">
        <h2 id="spend-heading">Spend, last {DAYS} days (UTC)</h2>
        {spend.state === "loading" ? <Loading what="usage" /> : null}
        {spend.state === "failed" ? (
          needsAdmin(spend.error) ? (
            <AdminOnly what="Seeing usage" />
          ) : (
            <LiveRegion tone="error">{spend.message}</LiveRegion>
          )
        ) : null}
        {spend.state === "ready" ? <SpendChart buckets={spend.value} /> : null}
      </section>
      {spend.state === "ready" ? <TopModels buckets={spend.value} /> : null}
    </div>
  );
}

function SpendChart({ buckets }: { buckets: UsageBucket[] }) {
  const points = buckets.map((bucket) => ({
    day: day(bucket.start_time - (bucket.start_time % SECONDS_PER_DAY)),
    cost: bucket.results.reduce((sum, result) => sum + result.cost_usd, 0),
  }));
  const total = points.reduce((sum, point) => sum + point.cost, 0);
  return (
    <figure className="chart">
      <figcaption>
        {usd(total)} spent in {points.length} days
      </figcaption>
      <div
        className="chart-box"
        role="img"
        aria-label={`Daily spend chart: ${usd(total)} over ${points.length} days`}
      >
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={points} margin={{ top: 8, right: 8, bottom: 0, left: 8 }}>
            <CartesianGrid vertical={false} />
            <XAxis dataKey="day" tickLine={false} minTickGap={24} />
            <YAxis tickFormatter={(value: number) => usd(value)} width={80} />
            <Tooltip
              formatter={(value) => usd(Number(value))}
              cursor={{ className: "chart-cursor" }}
              contentStyle={TOOLTIP_STYLE}
            />
            <Bar dataKey="cost" name="Spend" className="chart-bar" isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}

function TopModels({ buckets }: { buckets: UsageBucket[] }) {
  const models = topModels(buckets);
  return (
    <section className="card" aria-labelledby="models-heading">
      <h2 id="models-heading">Top models</h2>
      {models.length === 0 ? (
        <p className="muted">No requests in the last {DAYS} days.</p>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Model</th>
                <th scope="col" className="num">
                  Requests
                </th>
                <th scope="col" className="num wide-only">
                  Tokens
                </th>
                <th scope="col" className="num">
                  Cost
                </th>
              </tr>
            </thead>
            <tbody>
              {models.map((model) => (
                <tr key={model.model}>
                  <th scope="row">{model.model}</th>
                  <td className="num">{count(model.requests)}</td>
                  <td className="num wide-only">{count(model.tokens)}</td>
                  <td className="num">{usd(model.cost)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
