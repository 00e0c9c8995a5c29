import { wholeNumber } from "../numbers.js";
import { type ForecastAnswer, MAX_PROBABILITY, MIN_PROBABILITY, type OptionMap } from "../types.js";

/** A figure before interpretation: `percent` when written with "%" or "percent". */
export interface RawNumber {
  value: number;
  percent: boolean;
}

export interface ChoiceEntry {
  letter: string;
  raw: RawNumber;
}

/** A JSON value that holds a figure: a number, or a string such as "62%" or "1,250". */
export function rawNumberFrom(value: unknown): RawNumber | null {
  if (typeof value === "number") return Number.isFinite(value) ? { value, percent: false } : null;
  if (typeof value === "string") return wholeNumber(value);
  return null;
}

/**
 * A probability for "yes": percentages and figures above 1 are read as percent; 0% and 100%
 * become the clamps, since certainty is never a forecast.
 */
export function toProbability(raw: RawNumber): number | null {
  const fraction = raw.percent || raw.value > 1 ? raw.value / 100 : raw.value;
  if (!Number.isFinite(fraction) || fraction < 0 || fraction > 1) return null;
  return Math.min(MAX_PROBABILITY, Math.max(MIN_PROBABILITY, fraction));
}

const COMPLETE_TOLERANCE = 0.02;

/**
 * Option probabilities summing to 1. Percent-marked figures are divided by 100; unmarked ones
 * too when any of them exceeds 1 (the model wrote percentages without the sign). Letters that
 * are not among the known options are dropped; known options left out get 0 when the others
 * add up to a whole, and make the statement unreadable otherwise.
 */
export function toChoiceProbabilities(
  entries: ChoiceEntry[],
  options: OptionMap | null,
): Record<string, number> | null {
  const known = entries.filter(
    (entry) => /^[A-Z]$/.test(entry.letter) && (options === null || entry.letter in options),
  );
  const unmarkedArePercent = known.some((entry) => !entry.raw.percent && entry.raw.value > 1);
  const fractions = new Map<string, number>();
  for (const { letter, raw } of known) {
    const fraction = raw.percent || unmarkedArePercent ? raw.value / 100 : raw.value;
    if (!Number.isFinite(fraction) || fraction < 0 || fraction > 1) return null;
    fractions.set(letter, fraction);
  }
  const total = [...fractions.values()].reduce((sum, fraction) => sum + fraction, 0);
  if (total <= 0) return null;
  // Options left out are 0 only when the rest add up to a whole; otherwise the reply does not
  // say how the remainder is shared, and spreading it by normalizing would be a guess.
  const leftOut = options !== null && Object.keys(options).some((letter) => !fractions.has(letter));
  if (leftOut && Math.abs(total - 1) > COMPLETE_TOLERANCE) return null;
  const letters = new Set([...Object.keys(options ?? {}), ...fractions.keys()]);
  const probabilities: Record<string, number> = {};
  for (const letter of [...letters].sort()) {
    probabilities[letter] = (fractions.get(letter) ?? 0) / total;
  }
  return probabilities;
}

export function toContinuous(mean: number, standardDeviation: number): ForecastAnswer | null {
  if (!Number.isFinite(mean) || !Number.isFinite(standardDeviation) || standardDeviation <= 0) {
    return null;
  }
  return { type: "continuous", mean, standardDeviation };
}
