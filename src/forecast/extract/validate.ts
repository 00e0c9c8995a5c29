import { type NumberToken, wholeNumber } from "../numbers.js";
import type { ForecastAnswer, OptionMap } from "../types.js";

/** A figure before interpretation: `percent` when written with "%" or "percent". */
export interface RawNumber {
  value: number;
  percent: boolean;
}

export interface ChoiceEntry {
  letter: string;
  raw: RawNumber;
}

/** An option's figure read from a line, with where the figure stands in that line. */
export interface LineEntry extends ChoiceEntry {
  raw: NumberToken;
}

/** A JSON value that holds a figure: a number, or a string such as "62%" or "1,250". */
export function rawNumberFrom(value: unknown): RawNumber | null {
  if (typeof value === "number") return Number.isFinite(value) ? { value, percent: false } : null;
  if (typeof value === "string") return wholeNumber(value);
  return null;
}

/**
 * A probability for "yes", as the model gave it: percentages and figures above 1 are read as
 * percent; 0 and 1 stay 0 and 1. Anything outside [0, 1] is no probability.
 */
export function toProbability(raw: RawNumber): number | null {
  const fraction = raw.percent || raw.value > 1 ? raw.value / 100 : raw.value;
  if (!Number.isFinite(fraction) || fraction < 0 || fraction > 1) return null;
  return fraction;
}

const COMPLETE_TOLERANCE = 0.02;
// A total of 98% or 105% is rounding or a slip and is normalized; 120% is not one answer.
const CONTRADICTION_TOLERANCE = 0.1;
// Sums of binary fractions miss the bound by a hair: 98% gives 0.020000000000000018 over 1.
const ROUNDING = 1e-9;

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
  let total = [...fractions.values()].reduce((sum, fraction) => sum + fraction, 0);
  if (total <= 0) return null;
  // Options left out are 0 only when the rest add up to a whole; otherwise the reply does not
  // say how the remainder is shared, and spreading it by normalizing would be a guess.
  const missing = Object.keys(options ?? {}).filter((letter) => !fractions.has(letter));
  if (missing.length > 0 && Math.abs(total - 1) > COMPLETE_TOLERANCE + ROUNDING) return null;
  // "Democrats: 99%" of two options: the one option left out has the rest, not nothing.
  const [only] = missing;
  if (only !== undefined && missing.length === 1 && total < 1) {
    fractions.set(only, Math.round((1 - total) * 1e12) / 1e12);
    total = 1;
  }
  // "Democrats 70%, Republicans 70%": far more than rounding or a slip can explain, so the
  // figures contradict each other, and normalizing them would guess which one the model meant.
  if (Math.abs(total - 1) > CONTRADICTION_TOLERANCE + ROUNDING) return null;
  const letters = new Set([...Object.keys(options ?? {}), ...fractions.keys()]);
  // A total off 1 by a binary fraction's hair keeps the figures as stated: 0.0193, not 0.0193…05.
  const divisor = Math.abs(total - 1) <= ROUNDING ? 1 : total;
  const probabilities: Record<string, number> = {};
  for (const letter of [...letters].sort()) {
    probabilities[letter] = (fractions.get(letter) ?? 0) / divisor;
  }
  return probabilities;
}

export function toContinuous(mean: number, standardDeviation: number): ForecastAnswer | null {
  if (!Number.isFinite(mean) || !Number.isFinite(standardDeviation) || standardDeviation <= 0) {
    return null;
  }
  return { type: "continuous", mean, standardDeviation };
}
