import { withoutDates } from "../numbers.js";
import type { ForecastAnswer } from "../types.js";
import { isOthers } from "./commitment-context.js";
import { isEvidence } from "./evidence.js";
import { labelledNumbers } from "./labelled.js";
import type { Outcome } from "./outcome.js";
import { normalFromPercentiles, percentileStatement } from "./percentiles.js";
import { jsonQuantity } from "./quantity-json.js";
import {
  ANSWER_LABEL,
  MEAN_LABEL,
  MEDIAN_LABEL,
  type QuantityLabel,
  STANDARD_DEVIATION_LABEL,
} from "./quantity-labels.js";
import { type Interval, lastRange, plusMinus } from "./quantity-prose.js";
import { quantityText } from "./quantity-text.js";
import { plainText } from "./reply-text.js";
import { toContinuous } from "./validate.js";

function lastLabelled(text: string, label: QuantityLabel): number | undefined {
  return labelledNumbers(text, label).at(-1)?.figure.value;
}

/** The last figure of `label` that is not quoted evidence ("last year, a standard deviation of 213"). */
function lastOwnLabelled(text: string, label: QuantityLabel): number | undefined {
  return labelledNumbers(text, label)
    .filter((entry) => !isEvidence(text, entry.figure.start, entry.figure.end))
    .at(-1)?.figure.value;
}

function lastStrongLabelled(text: string, label: QuantityLabel): number | undefined {
  return labelledNumbers(text, label)
    .filter((entry) => entry.strong)
    .at(-1)?.figure.value;
}

/** "Mean: 48" and "SD: 4" both written with a colon: the reply's own answer lines. */
function labelledPair(text: string): { mean: number; standardDeviation: number } | null {
  const mean = lastStrongLabelled(text, MEAN_LABEL);
  const standardDeviation = lastStrongLabelled(text, STANDARD_DEVIATION_LABEL);
  return mean === undefined || standardDeviation === undefined ? null : { mean, standardDeviation };
}

/**
 * A figure with its spread ("45% ± 3"), unless a percentile list, an interval with its
 * coverage, or a mean is written after it: a spread in the reasoning ("polling at 24% ± 3")
 * describes the evidence, and the later statement the answer.
 */
function lastPlusMinus(
  text: string,
  percentilesAt: number,
  range: Interval | null,
): { mean: number; standardDeviation: number } | null {
  const spread = plusMinus(text);
  if (spread === null) return null;
  // Someone else's mean after it ("The Fed's central estimate is 4,527") restates nothing.
  const meanAt =
    labelledNumbers(text, MEAN_LABEL)
      .filter((entry) => !isOthers(text, entry.index, entry.figure))
      .at(-1)?.index ?? -1;
  const rangeAt = range?.levelStated === true ? range.index : -1;
  return Math.max(percentilesAt, rangeAt, meanAt) > spread.index ? null : spread;
}

/**
 * A mean and a standard deviation, each from its most explicit statement: a reply object,
 * "Mean:" and "SD:" lines, "42.5 ± 5.2", looser labels, tables, percentile lines, and as a last
 * resort a range ("between 30 and 50", "95% CI: 30–50") read at its stated coverage. Figures
 * keep their written scale: "3.5%" of a rate is 3.5. With `committedOnly`, the mean is never
 * read from a range or from a label written without ":" or "=".
 */
export function extractContinuous(text: string, committedOnly = false): Outcome<ForecastAnswer> {
  const plain = quantityText(plainText(text));
  const prose = withoutDates(plain);
  const json = jsonQuantity(plain);
  const percentiles = percentileStatement(prose);
  const fitted = normalFromPercentiles(percentiles.points);
  const range = lastRange(prose);
  const percentilesAt = percentiles.points.size >= 2 ? percentiles.index : -1;
  const stated = labelledPair(prose) ?? lastPlusMinus(prose, percentilesAt, range);
  const rangeMean = range === null ? undefined : (range.low + range.high) / 2;
  // Each part from its most explicit statement: "label:" lines before figures in prose, whose
  // labels ("the 50-day average is 5,310") name the evidence as often as the answer.
  const committedMeans: [string, number | undefined][] = [
    ["json", json.mean],
    ["labels", stated?.mean],
    ["mean_label", lastStrongLabelled(prose, MEAN_LABEL)],
    ["median_label", lastStrongLabelled(prose, MEDIAN_LABEL)],
    ["percentiles", fitted.mean],
    ["label", lastStrongLabelled(prose, ANSWER_LABEL)],
  ];
  const looseMeans = (): [string, number | undefined][] => [
    ["median_label", range?.levelStated ? lastLabelled(prose, MEDIAN_LABEL) : undefined],
    ["range_midpoint", range?.levelStated ? rangeMean : undefined],
    ["mean_label", lastLabelled(prose, MEAN_LABEL)],
    ["median_label", lastLabelled(prose, MEDIAN_LABEL)],
    ["label", lastLabelled(prose, ANSWER_LABEL)],
    ["range_midpoint", rangeMean],
  ];
  const means = committedOnly ? committedMeans : [...committedMeans, ...looseMeans()];
  const found = means.find(([, value]) => value !== undefined);
  const standardDeviation =
    json.standardDeviation ??
    stated?.standardDeviation ??
    lastStrongLabelled(prose, STANDARD_DEVIATION_LABEL) ??
    fitted.standardDeviation ??
    lastOwnLabelled(prose, STANDARD_DEVIATION_LABEL) ??
    (range === null ? undefined : (range.high - range.low) / (2 * range.z));
  const [rule, mean] = found ?? ["none", undefined];
  if (mean === undefined || standardDeviation === undefined) return { kind: "none" };
  const answer = toContinuous(mean, standardDeviation);
  return answer === null ? { kind: "invalid", rule } : { kind: "found", answer, rule };
}
