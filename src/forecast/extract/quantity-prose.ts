import { findNumbers, isYearLike, type NumberToken, readNumberAt } from "../numbers.js";

const PLUS_MINUS = /^\s*\(?\s*(?:±|\+\/-|\+\/−|\+-|plus or minus)\s*/i;
const RANGE_JOINER = /^\s*(?:to|and|–|—|-)\s*$/i;

/** The last "42.5 ± 5.2" written in `text`. */
export function plusMinus(text: string): { mean: number; standardDeviation: number } | null {
  let last: { mean: number; standardDeviation: number } | null = null;
  for (const token of findNumbers(text)) {
    const joiner = PLUS_MINUS.exec(text.slice(token.end));
    const spread = joiner === null ? null : readNumberAt(text, token.end + joiner[0].length);
    if (spread !== null) last = { mean: token.value, standardDeviation: spread.value };
  }
  return last;
}

/**
 * The last range written as "between 30 and 50", "30 to 50" or "30–50", lower bound first;
 * spans of years ("2019–2023") describe history, not the forecast.
 */
export function lastRange(text: string): { low: number; high: number } | null {
  const tokens = findNumbers(text);
  for (let index = tokens.length - 2; index >= 0; index--) {
    const low = tokens[index];
    const high = tokens[index + 1];
    if (low === undefined || high === undefined || low.value >= high.value) continue;
    if (isYearLike(low) && isYearLike(high)) continue;
    const joiner = text.slice(low.end, high.start);
    if (!RANGE_JOINER.test(joiner)) continue;
    const saysBetween = /between\s*$/i.test(text.slice(Math.max(0, low.start - 12), low.start));
    if (/and/i.test(joiner) && !saysBetween) continue;
    return { low: low.value, high: high.value };
  }
  return null;
}

/** The last figure, passing over calendar years unless nothing else is written. */
export function lastQuantity(text: string): NumberToken | null {
  const tokens = findNumbers(text);
  const quantities = tokens.filter((token) => !isYearLike(token));
  return (quantities.length > 0 ? quantities : tokens).at(-1) ?? null;
}
