/** Money inside Sibyl is integer nano-dollars; dollars appear only at the edges. */
export const NANOS_PER_USD = 1_000_000_000;

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/** Exact "12.345" → nano-dollars. Throws on text that is not a plain non-negative decimal. */
export function usdToNanos(amount: string | number): number {
  const text = typeof amount === "number" ? numberToDecimal(amount) : amount.trim();
  const match = DECIMAL.exec(text);
  if (!match) throw new RangeError(`not a non-negative decimal amount: ${text}`);
  const whole = BigInt(match[1] ?? "0");
  const fraction = (match[2] ?? "").padEnd(9, "0");
  if (/[1-9]/.test(fraction.slice(9))) {
    throw new RangeError(`amount has more precision than a nano-dollar: ${text}`);
  }
  const nanos = whole * BigInt(NANOS_PER_USD) + BigInt(fraction.slice(0, 9));
  if (nanos > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`amount too large: ${text}`);
  return Number(nanos);
}

export function nanosToUsd(nanos: number): number {
  return nanos / NANOS_PER_USD;
}

function numberToDecimal(value: number): string {
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`invalid amount: ${value}`);
  return value.toFixed(9).replace(/\.?0+$/, "");
}

const FEMTOS_PER_NANO = 1_000_000n;

/** A per-token price in femto-dollars (1e-15 USD), exact for any price with ≤ 15 decimals. */
export type TokenPrice = bigint;

export function parseTokenPrice(usdPerToken: string): TokenPrice {
  const match = DECIMAL.exec(usdPerToken.trim());
  if (!match) throw new RangeError(`not a decimal price: ${usdPerToken}`);
  const fraction = (match[2] ?? "").padEnd(15, "0");
  if (/[1-9]/.test(fraction.slice(15))) {
    throw new RangeError(`price has more than 15 decimals: ${usdPerToken}`);
  }
  return BigInt(match[1] ?? "0") * 10n ** 15n + BigInt(fraction.slice(0, 15));
}

/** Cost of `tokens` at `price`, in nano-dollars, rounded up so sub-nano remainders are not lost. */
export function tokenCostNanos(tokens: number, price: TokenPrice): number {
  const femtos = BigInt(tokens) * price;
  return Number((femtos + FEMTOS_PER_NANO - 1n) / FEMTOS_PER_NANO);
}
