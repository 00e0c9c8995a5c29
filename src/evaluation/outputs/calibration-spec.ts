import type { TopLevelSpec } from "vega-lite";
import type { ReliabilityBin } from "../scoring/calibration.js";

const PLOT_SIZE = 420;
const COUNTS_HEIGHT = 110;
/** Share of a bin's width left empty on each side of its group of count bars. */
const BAR_PADDING = 0.08;

interface BinRow {
  forecaster: string;
  forecast: number;
  observed: number;
  n: number;
  /** The bin's count bar, side by side with the other forecasters' bars of the same bin. */
  barStart: number;
  barEnd: number;
  /** Read by screen readers and by tests (the marks' aria-label). */
  label: string;
}

function rowsOf(series: Record<string, ReliabilityBin[]>): BinRow[] {
  const names = Object.keys(series);
  return names.flatMap((forecaster, index) =>
    (series[forecaster] ?? []).map((bin) => {
      const width = (bin.upper - bin.lower) * (1 - 2 * BAR_PADDING);
      const start = bin.lower + (bin.upper - bin.lower) * BAR_PADDING;
      return {
        forecaster,
        forecast: bin.meanForecast,
        observed: bin.observedFrequency,
        n: bin.n,
        barStart: start + (width * index) / names.length,
        barEnd: start + (width * (index + 1)) / names.length,
        label: `${forecaster}: forecasts ${bin.lower.toFixed(1)}–${bin.upper.toFixed(1)}, mean ${bin.meanForecast.toFixed(3)}, observed ${bin.observedFrequency.toFixed(3)}, n=${bin.n}`,
      };
    }),
  );
}

/** A probability axis over exactly [0, 1]. */
const unit = (title: string) => ({
  type: "quantitative" as const,
  scale: { domain: [0, 1], nice: false, zero: true },
  axis: { title, format: ".1f", tickCount: 10 },
});

const x = { field: "forecast", ...unit("Forecast probability (bin mean)") };
const y = { field: "observed", ...unit("Observed frequency") };

const diagonal = {
  data: {
    values: [
      { forecast: 0, observed: 0 },
      { forecast: 1, observed: 1 },
    ],
  },
  mark: { type: "line" as const, color: "#777", strokeDash: [6, 4], strokeWidth: 1.5 },
  encoding: { x, y, description: { value: "perfect calibration" } },
};

const COMMON = {
  $schema: "https://vega.github.io/schema/vega-lite/v6.json",
  background: "white",
  padding: 12,
  config: {
    font: "sans-serif",
    view: { stroke: "#bbb" },
    axis: { labelFontSize: 11, titleFontSize: 12, gridColor: "#e8e8e8" },
    legend: { labelFontSize: 12, titleFontSize: 12 },
    title: { fontSize: 15, subtitleFontSize: 12, subtitleColor: "#555" },
  },
};

/**
 * A reliability diagram as a Vega-Lite spec: for each forecaster its bins' mean forecast
 * against the observed frequency (point area by the number of forecasts, points joined in
 * order) beside the diagonal of perfect calibration, and below it the bins' counts.
 */
export function calibrationSpec(
  series: Record<string, ReliabilityBin[]>,
  title: string,
): TopLevelSpec {
  const rows = rowsOf(series);
  if (rows.length === 0) {
    return {
      ...COMMON,
      description: title,
      title: { text: title, subtitle: "No resolved binary forecasts to plot.", anchor: "start" },
      width: PLOT_SIZE,
      height: PLOT_SIZE,
      layer: [diagonal],
    };
  }
  const color = forecasterColor(series);
  // Vega estimates text widths without a canvas, generously: short subtitle lines keep the
  // plot from being padded on the right.
  const subtitle = [
    "Binary forecasts in equal-width bins.",
    "Dashed: perfect calibration. Point area: forecasts in the bin.",
  ];
  return {
    ...COMMON,
    description: title,
    title: { text: title, subtitle, anchor: "start" },
    data: { values: rows },
    spacing: 16,
    vconcat: [reliabilityPanel(color), countsPanel(color)],
  };
}

/** One color per forecaster, in the order of the series. */
function forecasterColor(series: Record<string, ReliabilityBin[]>) {
  return {
    field: "forecaster",
    type: "nominal" as const,
    title: "Forecaster",
    scale: { domain: Object.keys(series) },
    legend: { symbolType: "circle", labelLimit: 260 },
  };
}

type ForecasterColor = ReturnType<typeof forecasterColor>;

/** The bins' mean forecast against the observed frequency, beside the diagonal. */
function reliabilityPanel(color: ForecasterColor) {
  return {
    width: PLOT_SIZE,
    height: PLOT_SIZE,
    layer: [
      diagonal,
      {
        mark: { type: "line" as const, strokeWidth: 2, opacity: 0.8 },
        encoding: {
          x,
          y,
          color,
          order: { field: "forecast" },
          description: { field: "forecaster" },
        },
      },
      {
        mark: { type: "circle" as const, opacity: 0.85, stroke: "white", strokeWidth: 1 },
        encoding: {
          x,
          y,
          color,
          size: {
            field: "n",
            type: "quantitative" as const,
            title: "Forecasts in bin",
            scale: { range: [40, 500], zero: false },
            // Counts are whole numbers: integer ticks, printed as integers.
            legend: {
              symbolFillColor: "#999",
              symbolStrokeColor: "#999",
              tickCount: 4,
              tickMinStep: 1,
              format: "d",
            },
          },
          description: { field: "label" },
        },
      },
    ],
  };
}

/** Each bin's count of forecasts, a bar per forecaster side by side. */
function countsPanel(color: ForecasterColor) {
  return {
    width: PLOT_SIZE,
    height: COUNTS_HEIGHT,
    mark: { type: "bar" as const, opacity: 0.85 },
    encoding: {
      x: { field: "barStart", ...unit("Forecast probability (bin)") },
      x2: { field: "barEnd" },
      y: {
        field: "n",
        type: "quantitative" as const,
        axis: { title: "Forecasts", tickMinStep: 1, format: "d" },
      },
      y2: { datum: 0 },
      color,
      description: { field: "label" },
    },
  };
}
