/**
 * Finds the calendar dates a text mentions, to catch articles whose stated date is earlier than
 * what they report ("On April 2, 2024 the bill passed" in a piece dated March). Each pattern is a
 * plain sequence of literals, alternations of literals and bounded repeats, so matching is linear
 * in the text's length whatever it holds.
 *
 * Years alone ("by 2030", "the 2025 budget") are not dates here: forward-looking years are
 * everywhere in legitimate older text (targets, forecasts, fiscal years), and a bare year rarely
 * reveals an outcome, while dropping every article that names a later year would strip most of
 * the material a forecasting question needs. A month with its year ("Apr. 2024") counts.
 */

/** A date a text mentions, as the first instant of what it names (a day or a whole month). */
export interface DateMention {
  start: Date;
  precision: "day" | "month";
  /** The words that named it, for logs. */
  text: string;
}

const MONTH_NAMES: Record<string, number> = {
  january: 0,
  jan: 0,
  february: 1,
  feb: 1,
  march: 2,
  mar: 2,
  april: 3,
  apr: 3,
  may: 4,
  june: 5,
  jun: 5,
  july: 6,
  jul: 6,
  august: 7,
  aug: 7,
  september: 8,
  sept: 8,
  sep: 8,
  october: 9,
  oct: 9,
  november: 10,
  nov: 10,
  december: 11,
  dec: 11,
};

/** Capitalized, as month names are written: "may" and "march" are also ordinary words. */
const MONTH =
  "(January|February|March|April|May|June|July|August|September|October|November|December|JANUARY|FEBRUARY|MARCH|APRIL|MAY|JUNE|JULY|AUGUST|SEPTEMBER|OCTOBER|NOVEMBER|DECEMBER|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)\\.?";
const DAY = "(\\d{1,2})(?:st|nd|rd|th)?";
const YEAR = "(\\d{4})";

/** 2024-04-02, 2024/04/02, 2024.04.02 */
const ISO = /\b(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)/g;
/** 4/2/2024 or 2.4.2024: day and month order unknown. */
const NUMERIC = /\b(\d{1,2})[/.](\d{1,2})[/.](\d{4})\b/g;
/** April 2, 2024 · Apr. 2nd 2024 · April 2nd (year from context) */
const MONTH_DAY = new RegExp(
  `\\b${MONTH}[ \\t\\u00a0]{1,3}${DAY}\\b(?:,?[ \\t\\u00a0]{1,3}${YEAR}\\b)?`,
  "g",
);
/** 2 April 2024 · 2nd of April, 2024 · 2 April (year from context) */
const DAY_MONTH = new RegExp(
  `\\b${DAY}[ \\t\\u00a0]{1,3}(?:of[ \\t\\u00a0]{1,3})?${MONTH}(?:,?[ \\t\\u00a0]{1,3}${YEAR}\\b)?`,
  "g",
);
/** April 2024 · Apr. 2024 */
const MONTH_YEAR = new RegExp(`\\b${MONTH},?[ \\t\\u00a0]{1,3}${YEAR}\\b`, "g");

/** Years outside this range are more likely other numbers (counts, codes) than dates. */
const FIRST_YEAR = 1900;
const LAST_YEAR = 2199;

/**
 * Every date `text` mentions. A day and month without a year ("April 2nd") is read in the year
 * that puts it nearest to `context` (when the item is dated, or the cutoff), as a reader would:
 * "December 28" in a piece of January 3 is the week before. A numeric date whose day and month
 * could be either way round yields both readings.
 */
export function dateMentions(text: string, context: Date): DateMention[] {
  const found: DateMention[] = [];
  for (const match of text.matchAll(ISO)) {
    pushDay(found, match[0], Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  }
  for (const match of text.matchAll(NUMERIC)) {
    const year = Number(match[3]);
    const first = Number(match[1]);
    const second = Number(match[2]);
    pushDay(found, match[0], year, first - 1, second);
    if (first !== second) pushDay(found, match[0], year, second - 1, first);
  }
  for (const match of text.matchAll(MONTH_DAY)) {
    const month = monthIndex(match[1]);
    const day = Number(match[2]);
    const year = match[3] === undefined ? nearestYear(month, day, context) : Number(match[3]);
    pushDay(found, match[0], year, month, day);
  }
  for (const match of text.matchAll(DAY_MONTH)) {
    const month = monthIndex(match[2]);
    const day = Number(match[1]);
    const year = match[3] === undefined ? nearestYear(month, day, context) : Number(match[3]);
    pushDay(found, match[0], year, month, day);
  }
  for (const match of text.matchAll(MONTH_YEAR)) {
    const year = Number(match[2]);
    if (year < FIRST_YEAR || year > LAST_YEAR) continue;
    found.push({
      start: new Date(Date.UTC(year, monthIndex(match[1]), 1)),
      precision: "month",
      text: match[0],
    });
  }
  return found;
}

function nearestYear(month: number, day: number, context: Date): number {
  const year = context.getUTCFullYear();
  let best = year;
  for (const candidate of [year - 1, year + 1]) {
    const distance = Math.abs(Date.UTC(candidate, month, day) - context.getTime());
    if (distance < Math.abs(Date.UTC(best, month, day) - context.getTime())) best = candidate;
  }
  return best;
}

function monthIndex(name: string | undefined): number {
  return MONTH_NAMES[(name ?? "").replace(".", "").toLowerCase()] ?? -1;
}

/** Adds the day if it exists on the calendar (not 2024-02-30, not a version number 1.2.3). */
function pushDay(found: DateMention[], text: string, year: number, month: number, day: number) {
  if (year < FIRST_YEAR || year > LAST_YEAR || month < 0 || month > 11 || day < 1) return;
  const start = new Date(Date.UTC(year, month, day));
  if (start.getUTCMonth() !== month) return;
  found.push({ start, precision: "day", text });
}
