/**
 * ISO 8601 / RFC 3339 date-times read strictly: `Date.parse` accepts many other shapes, reads
 * some in the server's own time zone and rolls impossible days over (February 30 becomes March 1),
 * and an archive's dates decide what a backtest may see.
 */
const ISO_INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?\s*([Zz]|[+-]\d{2}(?::?\d{2})?)?)?$/;

/**
 * Unix milliseconds of an ISO 8601 date or date-time; null when `text` is not one. A date alone
 * is midnight UTC, and a date-time without a zone is read as UTC, as `prediction_date` is.
 */
export function parseInstant(text: string): number | null {
  const parts = ISO_INSTANT.exec(text.trim());
  if (!parts) return null;
  const [year, month, day, hour, minute, second] = parts
    .slice(1, 7)
    .map((part) => Number(part ?? 0));
  const fraction = parts[7] ?? "";
  const milliseconds = Number(fraction.padEnd(3, "0").slice(0, 3));
  if (
    year === undefined ||
    month === undefined ||
    day === undefined ||
    hour === undefined ||
    minute === undefined ||
    second === undefined ||
    hour > 23 ||
    minute > 59 ||
    second > 59
  ) {
    return null;
  }
  const local = Date.UTC(year, month - 1, day, hour, minute, second, milliseconds);
  const date = new Date(local);
  // Date.UTC rolls over out-of-range days and months; a real date comes back unchanged.
  if (
    date.getUTCFullYear() !== year ||
    date.getUTCMonth() !== month - 1 ||
    date.getUTCDate() !== day
  ) {
    return null;
  }
  const offset = zoneOffsetMinutes(parts[8]);
  return offset === null ? null : local - offset * 60_000;
}

/** The instants a date or date-time may name: a whole UTC day for a date alone, else one instant. */
export interface InstantSpan {
  earliest: number;
  latest: number;
}

const DAY_MS = 86_400_000;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** Like `parseInstant`, keeping what a date alone leaves open: any moment of that UTC day. */
export function parseInstantSpan(text: string): InstantSpan | null {
  const earliest = parseInstant(text);
  if (earliest === null) return null;
  const wholeDay = DATE_ONLY.test(text.trim());
  return { earliest, latest: wholeDay ? earliest + DAY_MS - 1 : earliest };
}

function zoneOffsetMinutes(zone: string | undefined): number | null {
  if (zone === undefined || zone === "Z" || zone === "z") return 0;
  const digits = zone.slice(1).replace(":", "");
  const hours = Number(digits.slice(0, 2));
  const minutes = Number(digits.slice(2) || "0");
  if (hours > 23 || minutes > 59) return null;
  return (zone.startsWith("-") ? -1 : 1) * (hours * 60 + minutes);
}
