/** A top-up's size in cents, as the interface gives it. */
export const TOPUP_CENTS = { default: 500, min: 100, max: 1_000_000 } as const;

const NANOS_PER_CENT = 10_000_000;

export function centsToNanos(cents: number): number {
  return cents * NANOS_PER_CENT;
}

/** The amount in a token's base units (a 6-decimal token: 1 cent = 10,000 units). */
export function centsToBaseUnits(cents: number, decimals: number): bigint {
  return BigInt(cents) * 10n ** BigInt(decimals - 2);
}

/** Whole cents from a token's base units; null for a fraction of a cent or a malformed amount. */
export function baseUnitsToCents(amount: unknown, decimals: number): number | null {
  if (typeof amount !== "string" || !/^[0-9]{1,30}$/.test(amount)) return null;
  const unit = 10n ** BigInt(decimals - 2);
  const units = BigInt(amount);
  if (units % unit !== 0n) return null;
  const cents = units / unit;
  return cents <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(cents) : null;
}

/** The cents that hold `nanos`, rounded up. */
export function nanosToCentsUp(nanos: number): number {
  return Math.ceil(nanos / NANOS_PER_CENT);
}

/** "$5.00". */
export function dollarText(cents: number): string {
  const whole = Math.floor(cents / 100).toLocaleString("en-US");
  return `$${whole}.${String(cents % 100).padStart(2, "0")}`;
}
