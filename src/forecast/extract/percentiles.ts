import { readNumberAt } from "../numbers.js";
import { normalQuantile } from "./normal.js";

/** Percentile (0–100, exclusive) → value. */
export type Percentiles = Map<number, number>;

const PERCENTILE_LABEL =
  /(?<!\w)(?:percentile[ \t_]*(\d{1,2}(?:\.\d+)?)(?:st|nd|rd|th)?|(\d{1,2}(?:\.\d+)?)(?:st|nd|rd|th)?[ \t_-]*percentile|p(\d{1,2}))(?!\w)(?:\s*\([^)\n]{0,40}\))?\s*(?:[:=]|\bis\b|\bat\b|[-–—])?/gi;

/** "Percentile 10: 30", "10th percentile: 30", "P90 = 55"; a later line for the same percentile wins. */
export function percentileLines(text: string): Percentiles {
  const points: Percentiles = new Map();
  for (const match of text.matchAll(PERCENTILE_LABEL)) {
    const percentile = Number(match[1] ?? match[2] ?? match[3]);
    const token = readNumberAt(text, match.index + match[0].length);
    if (token !== null && percentile > 0 && percentile < 100) points.set(percentile, token.value);
  }
  return points;
}

/**
 * Mean and standard deviation of the normal distribution through the lowest and highest
 * percentile given: sd = (p90 − p10) / 2.563 for the usual 10th–90th pair, centred on the
 * midpoint, or on the 50th percentile when it is stated. A single percentile gives no spread.
 */
export function normalFromPercentiles(points: Percentiles): {
  mean?: number;
  standardDeviation?: number;
} {
  const ordered = [...points.entries()].sort(([a], [b]) => a - b);
  const lowest = ordered[0];
  const highest = ordered[ordered.length - 1];
  const stated = points.get(50);
  if (lowest === undefined || highest === undefined || lowest[0] === highest[0]) {
    return stated === undefined ? {} : { mean: stated };
  }
  const [lowP, lowValue] = lowest;
  const [highP, highValue] = highest;
  const zLow = normalQuantile(lowP / 100);
  const standardDeviation = (highValue - lowValue) / (normalQuantile(highP / 100) - zLow);
  return { mean: stated ?? lowValue - zLow * standardDeviation, standardDeviation };
}
