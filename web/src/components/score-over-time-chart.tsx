import {
  Bar,
  CartesianGrid,
  ComposedChart,
  Line,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { ScoreGroup } from "../api/types";
import { count } from "../format";

type Series = NonNullable<ScoreGroup["series"]>;

/** recharts styles its tooltip in place; these follow the light or dark theme. */
const TOOLTIP_STYLE = {
  background: "var(--surface)",
  borderColor: "var(--border)",
  color: "var(--text)",
};

const monthLabel = new Intl.DateTimeFormat(undefined, {
  month: "short",
  year: "numeric",
  timeZone: "UTC",
});
const weekLabel = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeZone: "UTC" });

/** The periods with forecasts of the kind the chart shows, labelled by week or month. */
function pointsOf(series: Series, bucket: "week" | "month") {
  const binary = series.some((period) => period.binary.n > 0);
  const kind = binary ? "binary" : "multiple-choice";
  const points = series
    .map((period) => {
      const scores = binary ? period.binary : period.multiple_choice;
      const label = (bucket === "week" ? weekLabel : monthLabel).format(period.start * 1000);
      return { label: bucket === "week" ? `week of ${label}` : label, ...scores };
    })
    .filter((point) => point.n > 0);
  return { kind, points };
}

type Point = ReturnType<typeof pointsOf>["points"][number];

/**
 * The group's mean Brier score per week or month of prediction date, as a line over bars of
 * how many forecasts each period had: binary forecasts, or multiple choice where none are binary.
 */
export function ScoreOverTimeChart(props: {
  series: Series;
  bucket: "week" | "month";
  group: string;
}) {
  const { series, bucket, group } = props;
  const { kind, points } = pointsOf(series, bucket);
  const forecasts = points.reduce((sum, point) => sum + point.n, 0);
  return (
    <figure className="chart">
      <figcaption>
        Brier score of {group} by {bucket}: {count(forecasts)} {kind} forecasts in {points.length}{" "}
        {points.length === 1 ? bucket : `${bucket}s`}
      </figcaption>
      <div
        className="chart-box score-time-box"
        role="img"
        aria-label={`Brier score of ${group} by ${bucket} of prediction date, with the number of ${kind} forecasts of each`}
      >
        <BrierAndCountChart points={points} />
      </div>
    </figure>
  );
}

/** The mean Brier score as a line over bars of the number of forecasts. */
function BrierAndCountChart({ points }: { points: Point[] }) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <ComposedChart data={points} margin={{ top: 8, right: 8, bottom: 8, left: 8 }}>
        <CartesianGrid />
        <XAxis dataKey="label" />
        <YAxis
          yAxisId="brier"
          domain={[0, "auto"]}
          width={56}
          tickFormatter={(value: number) => value.toFixed(2)}
          label={{ value: "Brier", angle: -90, position: "insideLeft" }}
        />
        <YAxis
          yAxisId="n"
          orientation="right"
          allowDecimals={false}
          width={48}
          label={{ value: "Forecasts", angle: 90, position: "insideRight" }}
        />
        <Tooltip
          formatter={(value, name) =>
            name === "Brier" ? Number(value).toFixed(3) : count(Number(value))
          }
          contentStyle={TOOLTIP_STYLE}
        />
        <Bar
          yAxisId="n"
          dataKey="n"
          name="Forecasts"
          className="score-time-n"
          isAnimationActive={false}
        />
        <Line
          yAxisId="brier"
          dataKey="brier"
          name="Brier"
          className="score-time-brier"
          isAnimationActive={false}
        />
      </ComposedChart>
    </ResponsiveContainer>
  );
}
