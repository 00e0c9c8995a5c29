import { withoutDates } from "../numbers.js";
import type { ForecastAnswer } from "../types.js";
import { labelledNumbers, strongest } from "./labelled.js";
import { normalQuantile } from "./normal.js";
import type { Outcome } from "./outcome.js";
import { normalFromPercentiles, percentileLines } from "./percentiles.js";
import { jsonQuantity } from "./quantity-json.js";
import {
  ANSWER_LABEL,
  MEAN_LABEL,
  MEDIAN_LABEL,
  STANDARD_DEVIATION_LABEL,
} from "./quantity-labels.js";
import { lastRange, plusMinus } from "./quantity-prose.js";
import { plainText } from "./reply-text.js";
import { toContinuous } from "./validate.js";

// A stated range is read as the 10th–90th percentile interval.
const RANGE_Z = normalQuantile(0.9);

function lastLabelled(text: string, label: RegExp): number | undefined {
  return strongest(labelledNumbers(text, label)).at(-1)?.value;
}

/**
 * A mean and a standard deviation, each from its most explicit statement: a reply object,
 * "42.5 ± 5.2", labels ("Mean: 42.5", "SD: 5"), percentile lines, and as a last resort a range
 * ("between 30 and 50"). Figures keep their written scale: "3.5%" of a rate is 3.5.
 */
export function extractContinuous(text: string): Outcome<ForecastAnswer> {
  const plain = plainText(text);
  const prose = withoutDates(plain);
  const json = jsonQuantity(plain);
  const stated = plusMinus(prose);
  const fitted = normalFromPercentiles(percentileLines(prose));
  const range = lastRange(prose);
  const mean =
    json.mean ??
    stated?.mean ??
    lastLabelled(prose, MEAN_LABEL) ??
    lastLabelled(prose, MEDIAN_LABEL) ??
    fitted.mean ??
    lastLabelled(prose, ANSWER_LABEL) ??
    (range === null ? undefined : (range.low + range.high) / 2);
  const standardDeviation =
    json.standardDeviation ??
    stated?.standardDeviation ??
    lastLabelled(prose, STANDARD_DEVIATION_LABEL) ??
    fitted.standardDeviation ??
    (range === null ? undefined : (range.high - range.low) / (2 * RANGE_Z));
  if (mean === undefined || standardDeviation === undefined) return { kind: "none" };
  const answer = toContinuous(mean, standardDeviation);
  return answer === null ? { kind: "invalid" } : { kind: "found", answer };
}
