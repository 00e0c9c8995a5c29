/**
 * Strict parsers for the date formats providers send. Each returns a valid `Date` or null, never
 * an Invalid Date, and never guesses at a format it does not know (unlike `Date.parse`).
 *
 * A value that names only a day is read as the last millisecond of that day (UTC): the leak guard
 * compares dates with the cutoff, and an article dated "2024-03-15" may have appeared at any time
 * that day, so only the end of the day is a safe bound. A time without a zone is read as UTC.
 */

const DAY_MS = 86_400_000;

const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/** RFC 1123 / RFC 2822, as in HTTP headers and RSS: `Thu, 14 Mar 2024 12:00:00 GMT`. */
const RFC_DATE_TIME =
  /^(?:(?:mon|tue|wed|thu|fri|sat|sun),\s*)?(\d{1,2})\s+(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\s+(\d{4})\s+(\d{2}):(\d{2})(?::(\d{2}))?\s+(gmt|utc|ut|z|[+-]\d{4})$/i;

/** An English calendar date: `March 14, 2024` or `Mar 14, 2024`. */
const LONG_DATE =
  /^(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(\d{1,2}),\s*(\d{4})$/i;

/** GDELT's `seendate`: `20240314T120000Z`. */
const GDELT_DATE_TIME = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;

interface Parts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
  offsetMinutes: number;
}

/** ISO 8601 / RFC 3339 date or date-time, or an RFC 1123 date-time. */
export function parseDate(value: unknown): Date | null {
  if (typeof value !== "string") return null;
  const text = value.trim();
  return parseIsoDate(text) ?? parseRfcDate(text);
}

/** An English calendar date such as `June 13, 2023`; relative ages ("2 days ago") give null. */
export function parseLongDate(value: unknown): Date | null {
  if (typeof value !== "string") return null;
  const match = LONG_DATE.exec(value.trim());
  if (!match) return null;
  return endOfDay(Number(match[3]), monthNumber(match[1]), Number(match[2]));
}

export function parseGdeltDate(value: unknown): Date | null {
  if (typeof value !== "string") return null;
  const match = GDELT_DATE_TIME.exec(value.trim());
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number);
  return instant({
    year: year ?? 0,
    month: month ?? 0,
    day: day ?? 0,
    hour: hour ?? 0,
    minute: minute ?? 0,
    second: second ?? 0,
    millisecond: 0,
    offsetMinutes: 0,
  });
}

/** `YYYYMMDDHHMMSS` in UTC, the form of GDELT's `startdatetime` and `enddatetime`. */
export function formatGdeltDate(date: Date): string {
  return date.toISOString().slice(0, 19).replace(/[-:T]/g, "");
}

function parseIsoDate(text: string): Date | null {
  const match = ISO_DATE_TIME.exec(text);
  if (!match) return null;
  const [, year, month, day, hour, minute, second, fraction, zone] = match;
  if (hour === undefined) return endOfDay(Number(year), Number(month), Number(day));
  const offsetMinutes = zoneOffset(zone);
  if (offsetMinutes === null) return null;
  return instant({
    year: Number(year),
    month: Number(month),
    day: Number(day),
    hour: Number(hour),
    minute: Number(minute),
    second: Number(second ?? 0),
    millisecond: fraction ? Math.floor(Number(`0.${fraction}`) * 1000) : 0,
    offsetMinutes,
  });
}

function parseRfcDate(text: string): Date | null {
  const match = RFC_DATE_TIME.exec(text);
  if (!match) return null;
  const [, day, month, year, hour, minute, second, zone] = match;
  const offsetMinutes = zoneOffset(zone);
  if (offsetMinutes === null) return null;
  return instant({
    year: Number(year),
    month: monthNumber(month),
    day: Number(day),
    hour: Number(hour),
    minute: Number(minute),
    second: Number(second ?? 0),
    millisecond: 0,
    offsetMinutes,
  });
}

/** Minutes east of UTC; 0 when absent (read as UTC); null when out of range. */
function zoneOffset(zone: string | undefined): number | null {
  if (zone === undefined) return 0;
  const upper = zone.toUpperCase();
  if (upper === "Z" || upper === "GMT" || upper === "UTC" || upper === "UT") return 0;
  const digits = zone.slice(1).replace(":", "");
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2)) : 0;
  if (hours > 14 || minutes > 59) return null;
  const offset = hours * 60 + minutes;
  return zone.startsWith("-") ? -offset : offset;
}

function monthNumber(name: string | undefined): number {
  return MONTHS.indexOf((name ?? "").slice(0, 3).toLowerCase()) + 1;
}

function endOfDay(year: number, month: number, day: number): Date | null {
  const start = instant({
    year,
    month,
    day,
    hour: 0,
    minute: 0,
    second: 0,
    millisecond: 0,
    offsetMinutes: 0,
  });
  return start ? new Date(start.getTime() + DAY_MS - 1) : null;
}

/**
 * The instant the parts name, or null when any part is out of range (a 30th of February, hour 24).
 * Years before 1970 are refused: the epoch itself is the usual placeholder for "no date", and no
 * web page predates it.
 */
function instant(parts: Parts): Date | null {
  const { year, month, day, hour, minute, second, millisecond, offsetMinutes } = parts;
  if (year < 1970 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    return null;
  }
  if (hour > 23 || minute > 59 || second > 59) return null;
  const time =
    Date.UTC(year, month - 1, day, hour, minute, second, millisecond) - offsetMinutes * 60_000;
  return time > 0 ? new Date(time) : null;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}
