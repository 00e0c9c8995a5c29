import { unprocessable } from "../errors.js";

/**
 * A date as the API takes it, in Unix seconds: an integer of seconds, or ISO 8601 text (a date
 * alone is midnight UTC; a date-time without a zone is read as UTC).
 */
export function unixSecondsOf(value: string | number, param: string): number {
  if (typeof value === "number") return value;
  const text =
    value.length === 10
      ? `${value}T00:00:00Z`
      : /[zZ]|[+-]\d{2}:?\d{2}$/.test(value.slice(10))
        ? value
        : `${value}Z`;
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) {
    throw unprocessable(
      `${param} is not a valid ISO 8601 date: ${value}`,
      "invalid_date",
      param,
      value,
    );
  }
  return Math.floor(ms / 1000);
}
