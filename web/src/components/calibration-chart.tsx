import {
  CartesianGrid,
  ReferenceLine,
  ResponsiveContainer,
  Scatter,
  ScatterChart,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { CalibrationBin } from "../api/types";
import { count } from "../format";

/** recharts styles its tooltip in place; these follow the light or dark theme. */
const TOOLTIP_STYLE = {
  background: "var(--surface)",
  borderColor: "var(--border)",
  color: "var(--text)",
};

const TICKS = [0, 0.2, 0.4, 0.6, 0.8, 1];

/**
 * A reliability diagram: each bin's mean forecast against how often its questions resolved yes.
 * A calibrated forecaster's points lie on the diagonal; below it, over-confident in yes.
 */
export function CalibrationChart({ bins, group }: { bins: CalibrationBin[]; group: string }) {
  const forecasts = bins.reduce((sum, bin) => sum + bin.n, 0);
  return (
    <figure className="chart">
      <figcaption>
        Calibration of {group}: {count(forecasts)} binary forecasts in {bins.length} bins
      </figcaption>
      <div
        className="chart-box calibration-box"
        role="img"
        aria-label={`Calibration plot of ${group}: mean forecast against observed frequency in ${bins.length} bins, with the diagonal of perfect calibration`}
      >
        <ResponsiveContainer width="100%" height="100%">
          <ScatterChart margin={{ top: 8, right: 16, bottom: 16, left: 8 }}>
            <CartesianGrid />
            <XAxis
              type="number"
              dataKey="mean_forecast"
              name="Mean forecast"
              domain={[0, 1]}
              ticks={TICKS}
              label={{ value: "Forecast", position: "insideBottom", offset: -8 }}
            />
            <YAxis
              type="number"
              dataKey="observed_frequency"
              name="Observed frequency"
              domain={[0, 1]}
              ticks={TICKS}
              width={48}
            />
            <ReferenceLine
              segment={[
                { x: 0, y: 0 },
                { x: 1, y: 1 },
              ]}
              className="calibration-diagonal"
              ifOverflow="visible"
            />
            <Tooltip formatter={(value) => Number(value).toFixed(3)} contentStyle={TOOLTIP_STYLE} />
            <Scatter
              data={bins}
              name={group}
              line
              className="calibration-points"
              isAnimationActive={false}
            />
          </ScatterChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}
