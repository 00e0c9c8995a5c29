import { setImmediate as nextTurn } from "node:timers/promises";
import type { ReliabilityBin } from "../scoring/calibration.js";
import { calibrationSpec } from "./calibration-spec.js";

/**
 * The reliability diagram rendered to a standalone SVG by Vega-Lite and Vega, on the server
 * without a canvas. The libraries load on first use only (the server never needs them), and
 * the event loop gets a turn between compiling, parsing and rendering.
 */
export async function calibrationSvg(
  series: Record<string, ReliabilityBin[]>,
  title: string,
): Promise<string> {
  const [vega, vegaLite] = await Promise.all([import("vega"), import("vega-lite")]);
  const compiled = vegaLite.compile(calibrationSpec(series, title)).spec;
  await nextTurn();
  const view = new vega.View(vega.parse(compiled), { renderer: "none" });
  await nextTurn();
  try {
    return `${await view.toSVG()}\n`;
  } finally {
    view.finalize();
  }
}
