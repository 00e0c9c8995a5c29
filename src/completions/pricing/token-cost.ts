import type { TokenPrice } from "../../util/money.js";
import { tokenCostNanos } from "../../util/money.js";

export interface TokenCounts {
  promptTokens: number;
  completionTokens: number;
}

export function inferenceCostNanos(
  price: { prompt: TokenPrice; completion: TokenPrice },
  tokens: TokenCounts,
): number {
  return (
    tokenCostNanos(tokens.promptTokens, price.prompt) +
    tokenCostNanos(tokens.completionTokens, price.completion)
  );
}

/** Applies a price multiplier (batch discount) to a cost, rounding up to the next nano-dollar. */
export function scaleCost(nanos: number, multiplier: number): number {
  return multiplier === 1 ? nanos : Math.ceil(nanos * multiplier);
}
