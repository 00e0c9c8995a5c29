import { withoutDates } from "../numbers.js";
import type { ForecastAnswer } from "../types.js";
import { ownLabelledNumbers, strongest } from "./labelled.js";
import { mapOutcome, type Outcome, resolveTiers, type Tier } from "./outcome.js";
import { normalFromPercentiles, percentileLines } from "./percentiles.js";
import { jsonValues } from "./quantity-json.js";
import { ANSWER_LABEL, MEAN_LABEL, MEDIAN_LABEL, type QuantityLabel } from "./quantity-labels.js";
import { lastQuantity, lastRange, plusMinus } from "./quantity-prose.js";
import { quantityText } from "./quantity-text.js";
import { plainText } from "./reply-text.js";

function present(value: number | null | undefined): number[] {
  return value === null || value === undefined ? [] : [value];
}

/**
 * One number from the most explicit statement in `text`; with `committedOnly`, never from a
 * bare range or the last figure of prose, nor from a label written without ":" or "=".
 */
export function extractSingleValue(text: string, committedOnly = false): Outcome<ForecastAnswer> {
  const plain = quantityText(plainText(text));
  const prose = withoutDates(plain);
  const labelled = (label: QuantityLabel) => () =>
    strongest(ownLabelledNumbers(prose, label), committedOnly).map((token) => token.value);
  const committed: Tier<number>[] = [
    { rule: "json", decisive: true, find: () => jsonValues(plain) },
    { rule: "label", decisive: true, find: labelled(ANSWER_LABEL) },
    { rule: "mean_label", decisive: true, find: labelled(MEAN_LABEL) },
    { rule: "median_label", decisive: true, find: labelled(MEDIAN_LABEL) },
    { rule: "plus_minus", decisive: true, find: () => present(plusMinus(prose)?.mean) },
    {
      rule: "percentiles",
      decisive: true,
      find: () => present(normalFromPercentiles(percentileLines(prose)).mean),
    },
  ];
  const loose: Tier<number>[] = [
    {
      rule: "range_midpoint",
      decisive: true,
      find: () => {
        const range = lastRange(prose);
        return present(range === null ? null : (range.low + range.high) / 2);
      },
    },
    { rule: "last_figure", decisive: true, find: () => present(lastQuantity(prose)?.value) },
  ];
  const outcome = resolveTiers<number, number>(
    committedOnly ? committed : [...committed, ...loose],
    (value) => (Number.isFinite(value) ? value : null),
  );
  return mapOutcome(outcome, (value) => ({ type: "continuous_value_only", value }));
}
