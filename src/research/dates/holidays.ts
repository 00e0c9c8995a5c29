/**
 * Holidays that name one day wherever they are kept, as the first instant of that day (UTC) in a
 * given year. Holidays whose day differs by country (Independence Day, Labour Day) are not here.
 */

const DAY_MS = 86_400_000;

/** Western Easter Sunday (the anonymous Gregorian computus). */
function easter(year: number): number {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return Date.UTC(year, month - 1, day);
}

/** United States Thanksgiving: the fourth Thursday of November. */
function thanksgiving(year: number): number {
  const first = Date.UTC(year, 10, 1);
  const toThursday = (4 - new Date(first).getUTCDay() + 7) % 7;
  return first + (toThursday + 21) * DAY_MS;
}

export type Holiday = (year: number) => number;

const fixed =
  (month: number, day: number): Holiday =>
  (year) =>
    Date.UTC(year, month, day);

/**
 * Each holiday by the words that name it, keyed as the grammar keys words: the first word, then
 * what may follow it ("christmas eve"). The longest name written wins.
 */
export const HOLIDAYS = new Map<string, [string[], Holiday][]>([
  [
    "christmas",
    [
      [["eve"], fixed(11, 24)],
      [["day"], fixed(11, 25)],
      [[], fixed(11, 25)],
    ],
  ],
  ["xmas", [[[], fixed(11, 25)]]],
  ["halloween", [[[], fixed(9, 31)]]],
  [
    "valentine",
    [
      [["'", "s", "day"], fixed(1, 14)],
      [["’", "s", "day"], fixed(1, 14)],
      [["s", "day"], fixed(1, 14)],
    ],
  ],
  [
    "easter",
    [
      [["sunday"], easter],
      [["monday"], (year) => easter(year) + DAY_MS],
      [[], easter],
    ],
  ],
  ["thanksgiving", [[[], thanksgiving]]],
  [
    "new",
    [
      [["year", "'", "s", "eve"], fixed(11, 31)],
      [["year", "’", "s", "eve"], fixed(11, 31)],
      [["years", "eve"], fixed(11, 31)],
      [["year", "'", "s", "day"], fixed(0, 1)],
      [["year", "’", "s", "day"], fixed(0, 1)],
      [["year", "'", "s"], fixed(0, 1)],
      [["year", "’", "s"], fixed(0, 1)],
      [["years", "day"], fixed(0, 1)],
      [["year", "day"], fixed(0, 1)],
    ],
  ],
]);

/** Words after a holiday's name that make it something else: Easter Island, an Easter egg. */
export const NOT_A_HOLIDAY_AFTER = new Set(["island", "islands", "egg", "eggs", "rising"]);
