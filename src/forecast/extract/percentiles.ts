import { readNumberAt } from "../numbers.js";
import { holdsWords, matchesOf } from "./matches.js";
import { normalQuantile } from "./normal.js";

/** Percentile (0–100, exclusive) → value. */
export type Percentiles = Map<number, number>;

// "5%: 134" and "5th: 134" name a percentile only where they start a line or an item of a
// list ("5th: 120, 25th: 181"). A table's rows arrive as "percentile 5%: 14.1M".
const PERCENTILE_LABEL =
  /(?<!\w)(?:percentile[ \t_]*(\d{1,2}(?:\.\d+)?)(?:%|st|nd|rd|th)?|(\d{1,2}(?:\.\d+)?)(?:st|nd|rd|th)?[ \t_-]*percentile|p(\d{1,2})|(?:^|(?<=\n)|(?<=[,;][ \t]{0,3}))[ \t>*•+-]*(\d{1,2})(?:%|st|nd|rd|th)[ \t]*(?=[:=]))(?!\w)(?:\s*\([^)\n]{0,40}\))?\s*(?:[:=]|\bis\b|\bat\b|[-–—])?/gi;

// Every label holds the word, "p" and a digit, or a colon or "=" after its figure: a search
// for those skips over the digits a search for the whole pattern tries one by one. Where one is
// written, the figure's ending is looked for before the colon too ("5th:", "5%:"): prose holds
// colons, and a search for the whole pattern, one of whose forms may start at any space, costs
// about twenty times as much there.
const PERCENTILE_WRITTEN = /percentile|p\d|[:=]/i;
const PERCENTILE_LABEL_WRITTEN = /percentile|p\d|(?:%|st|nd|rd|th)[ \t]*[:=]/i;

// "the 5th percentile is 134 and the 95th is 266": an ordinal stands for a percentile right
// after one was named.
const ORDINAL_AFTER_PERCENTILE = /\bthe\s+(\d{1,2})(?:st|nd|rd|th)\s+(?:is|at|[:=])\s*/gi;
const PERCENTILE_NAMED = /percentile/i;
const ORDINAL_REACH = 80;

/** Percentiles stated in a reply, and where the last of them is written (-1 when none). */
export interface PercentileStatement {
  points: Percentiles;
  index: number;
}

/**
 * "Percentile 10: 30", "10th percentile: 30", "P90 = 55"; a later line for the same percentile
 * wins. The points' order is not the order written: their readers sort them.
 */
export function percentileStatement(text: string): PercentileStatement {
  const written = PERCENTILE_WRITTEN.test(text) && PERCENTILE_LABEL_WRITTEN.test(text);
  const labelled = written ? matchesOf(text, PERCENTILE_LABEL) : [];
  const labels = labelled.map((match) => ({
    percentile: Number(match[1] ?? match[2] ?? match[3] ?? match[4]),
    index: match.index,
    from: match.index + match[0].length,
  }));
  // An ordinal counts only after the word, so a text without it is not searched for one.
  const named = holdsWords(text, PERCENTILE_NAMED);
  const ordinals = (named ? matchesOf(text, ORDINAL_AFTER_PERCENTILE) : [])
    .filter((match) =>
      PERCENTILE_NAMED.test(text.slice(Math.max(0, match.index - ORDINAL_REACH), match.index)),
    )
    .map((match) => ({
      percentile: Number(match[1]),
      index: match.index,
      from: match.index + match[0].length,
    }));
  // A later line for a percentile wins: read from the last back, each percentile's figure is
  // read once, not once per line of a list of thousands.
  const ordered = [...labels, ...ordinals].sort((a, b) => a.index - b.index);
  const points: Percentiles = new Map();
  let index = -1;
  for (let at = ordered.length - 1; at >= 0; at--) {
    const label = ordered[at] as (typeof ordered)[number];
    const { percentile } = label;
    if (percentile <= 0 || percentile >= 100 || points.has(percentile)) continue;
    const token = readNumberAt(text, label.from);
    if (token === null) continue;
    points.set(percentile, token.value);
    if (index === -1) index = label.index;
  }
  return { points, index };
}

export function percentileLines(text: string): Percentiles {
  return percentileStatement(text).points;
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
