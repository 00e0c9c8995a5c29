const usdFormat = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  minimumFractionDigits: 2,
  maximumFractionDigits: 6,
});

/** Dollars with as many decimals as small amounts need (a completion may cost $0.000012). */
export const usd = (dollars: number) => usdFormat.format(dollars);

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const dayFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeZone: "UTC" });

export const when = (seconds: number | null | undefined, never = "never") =>
  seconds == null ? never : dateTime.format(new Date(seconds * 1000));

/** A UTC day, as the usage report buckets days. */
export const day = (seconds: number) => dayFormat.format(new Date(seconds * 1000));

export const isoDay = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

export const count = (n: number) => n.toLocaleString("en-US");

export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** Unix seconds of a `YYYY-MM-DD` day's start in UTC. */
export const dayStart = (isoDate: string) => Date.parse(`${isoDate}T00:00:00Z`) / 1000;
