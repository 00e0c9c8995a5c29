import { HOLIDAYS, NOT_A_HOLIDAY_AFTER } from "./holidays.js";
import {
  AMBIGUOUS_MONTH_WORDS,
  BARE_MONTH_LEADS,
  COUNT_OF,
  DATE_MARKS,
  FOREIGN_NEXT,
  FOREIGN_UNIT,
  GIVEN_NAME_MONTHS,
  HALF_WORDS,
  isSharedMonthWord,
  LINK_WORDS,
  MONTH_DETERMINERS,
  MONTH_EDGE_DAY,
  MONTH_OF,
  NAMES_WHEN_CAPITALISED,
  ORDINAL_OF,
  ORDINAL_SUFFIXES,
  ORDINAL_TENS,
  PAST_LEADS,
  RELATIVE_WORDS,
  ROMAN_MONTH,
  SEASON_START,
  TIME_LEAD,
  TIME_PREPOSITIONS,
  TOMORROW_WORDS,
  UNIT_DAYS,
  WEEKDAY_OF,
  YEAR_EDGE_MONTH,
} from "./lexicon.js";
import { CAPITALISED, LOWER, MARK, NUMBER, type Tokens, tokenize, UPPER, WORD } from "./tokens.js";

/**
 * Reads the times a text names, as the first instant of each (a day, a month, a quarter…).
 * Left to right over tokens, each pattern looking a bounded number of tokens ahead, the longest
 * reading at a position winning: linear in the text's length.
 *
 * Rules a reader needs to know:
 * - A period counts from its first day: a month, quarter (Q3 = July), half (H2 = July), ISO
 *   week (its Monday), season (northern meteorological: spring March, summer June, autumn
 *   September, winter December of the year named), fiscal year (FY2027 counts from 1 January
 *   2027, the latest start any fiscal calendar gives it). "End of June" is June's last day.
 * - A numeric date whose day and month could be either way round (03-06-2026) is read both
 *   ways; two-digit years are 2000–2069 or 1970–1999.
 * - A day without a year is read against the document's date: the first such day on or after
 *   it, unless that day fell within the four months before it (then that past day). "June 3" in
 *   a piece of 2025-11-01 is 2026-06-03; "April 28" in one of 2026-05-01 is 2026-04-28.
 * - A month named alone ("in September", "en septiembre", "im September", "в сентябре", "by the
 *   September meeting", "next June") is read only after a word that makes it a time (a
 *   preposition, "this", "next"), against the document's month as a yearless day is: that month
 *   when it is the document's own or one of the four before it, otherwise its next occurrence
 *   ("next June" is always the next). It counts from its first day: "in September" in a piece of
 *   2024-07-31 is 2024-09-01. Capitalised between a determiner and a small word ("The September
 *   meeting"), as a possessive ("September's vote", not the given names April, May, June,
 *   August) or after "of" it is read too; after "last" it is past and not read. Seasons after a
 *   lead of time and quarters or halves after one ("in Q3") are read the same way.
 * - Parts of a year go in thirds: "early 2027" from January, "mid-2026" from May, "late 2026"
 *   from September; "the end of 2026" and "year-end 2026" are 31 December.
 * - "may", "march", "mar" and "august" in small letters are English words too: alone they are
 *   read only after a preposition of time ("in may", not "to march"), and with a day but no year
 *   only after one ("on 3 may", "by may 3", not "3 may be enough" or "march 10 miles"). Capitalised or in capitals they are
 *   months. "Mayo", "Julio", "Abril", "Avril" capitalised and alone are names ("Mayo Clinic").
 * - English relative expressions (yesterday, tomorrow, next week, next Monday, in two weeks,
 *   ten days from now, next month, next quarter) are resolved against the document's date.
 * - Years alone ("by 2030", "next year", "in five years") are not read: forward-looking years are
 *   everywhere in legitimate older text, and alone they rarely reveal an outcome.
 */

export interface DateMention {
  /** The first instant of the time named (UTC). */
  start: Date;
  /** Where in the text it was named. */
  index: number;
  text: string;
}

const DAY_MS = 86_400_000;
const FIRST_YEAR = 1900;
const LAST_YEAR = 2199;
/** A yearless day this close before the document's date is read as that past day. */
const RECENT_PAST_DAYS = 122;
/** A month named alone this many months before the document's month is read as that past month. */
const RECENT_PAST_MONTHS = 4;

interface Match {
  /** Index of the token after the match. */
  next: number;
  starts: number[];
}

type Pattern = (tokens: Tokens, at: number, documentDay: number) => Match | null;

/** Every time `text` names, read against `documentDate` (for yearless and relative forms). */
export function dateMentions(text: string, documentDate: Date): DateMention[] {
  const mentions: DateMention[] = [];
  eachMention(text, documentDate, (start, from, to) => {
    mentions.push({ start: new Date(start), index: from, text: text.slice(from, to) });
    return false;
  });
  return mentions;
}

/** The first time `text` names that starts at or after `cutoff`, or null. */
export function laterMention(text: string, documentDate: Date, cutoff: Date): DateMention | null {
  const limit = cutoff.getTime();
  let later: DateMention | null = null;
  // Stops at the first later time: nothing is built for the times before it.
  eachMention(text, documentDate, (start, from, to) => {
    if (start < limit) return false;
    later = { start: new Date(start), index: from, text: text.slice(from, to) };
    return true;
  });
  return later;
}

/**
 * Calls `visit` with each time named (its first instant in Unix milliseconds and where it was
 * named) until `visit` returns true.
 */
function eachMention(
  text: string,
  documentDate: Date,
  visit: (start: number, from: number, to: number) => boolean,
): void {
  const tokens = tokenize(text);
  classifyMarks(tokens);
  const documentDay = Math.floor(documentDate.getTime() / DAY_MS) * DAY_MS;
  let at = 0;
  while (at < tokens.length) {
    const match = matchAt(tokens, at, documentDay);
    if (!match) {
      at += 1;
      continue;
    }
    const from = tokens.start[at] as number;
    const to = tokens.end[match.next - 1] as number;
    for (const start of match.starts) if (visit(start, from, to)) return;
    at = match.next;
  }
}

/**
 * The patterns a number may start, and those each word may start, in the order they are tried
 * (the first that reads a time wins). Any other word, and every mark, starts none.
 */
const NUMBER_PATTERNS: Pattern[] = [
  numericDate,
  compactDate,
  ideographicDate,
  yearFirstPeriod,
  dayLed,
  signedPeriod,
  romanDate,
  numericMonth,
  spacedNumericDate,
  // 36 hours from now · 10 days later
  relative,
];
const MARK_PATTERNS: Pattern[] = [copyrightYear];
const WORD_PATTERNS = new Map<string, Pattern[]>();
for (const [pattern, words] of [
  [monthFirst, MONTH_OF.keys()],
  [possessiveMonth, MONTH_OF.keys()],
  [dayLed, [...ORDINAL_OF.keys(), ...ORDINAL_TENS.keys()]],
  [signedPeriod, ["q", "h", "w", "kw", "week", "qfy", "hfy"]],
  [fiscalYear, ["fy", "fiscal"]],
  [season, SEASON_START.keys()],
  [edgeOfMonth, MONTH_EDGE_DAY.keys()],
  [edgeOfYear, YEAR_EDGE_MONTH.keys()],
  [periodEnd, ["year", "yearend", "month"]],
  [halfByWord, HALF_WORDS.keys()],
  [romanMonthYear, ROMAN_MONTH.keys()],
  [holiday, HOLIDAYS.keys()],
  [relative, [...COUNT_OF.keys(), ...RELATIVE_WORDS]],
  [foreignRelative, [...TOMORROW_WORDS, ...FOREIGN_NEXT, ...FOREIGN_UNIT.keys()]],
  [bareMonth, BARE_MONTH_LEADS.keys()],
  [
    ideographicDate,
    ["〇", "零", "一", "二", "三", "四", "五", "六", "七", "八", "九", "十", "令", "平"],
  ],
  [copyrightYear, ["copyright", "c"]],
  [monthBeforeNoun, MONTH_DETERMINERS],
] as const) {
  for (const word of words) {
    const patterns = WORD_PATTERNS.get(word) ?? [];
    if (!patterns.includes(pattern)) patterns.push(pattern);
    WORD_PATTERNS.set(word, patterns);
  }
}

function matchAt(tokens: Tokens, at: number, documentDay: number): Match | null {
  const kind = tokens.kindAt(at);
  const patterns =
    kind === NUMBER
      ? NUMBER_PATTERNS
      : kind === WORD
        ? WORD_PATTERNS.get(tokens.text[at] as string)
        : kind === MARK && tokens.text[at] === "©"
          ? MARK_PATTERNS
          : undefined;
  if (patterns === undefined) return null;
  for (const pattern of patterns) {
    const match = pattern(tokens, at, documentDay);
    if (match && match.starts.length > 0) return match;
  }
  return null;
}

// ---- small readers -------------------------------------------------------------------------

function number(tokens: Tokens, at: number, maxDigits: number): number | null {
  return tokens.kindAt(at) === NUMBER && (tokens.digits[at] as number) <= maxDigits
    ? (tokens.value[at] as number)
    : null;
}

function word(tokens: Tokens, at: number): string | null {
  return tokens.wordAt(at);
}

/** Classes of marks, as bits: a mark may be of several. */
const DATE_MARK = 1;
const NUMERIC_MARK = 2;
const DOT = 4;
const HYPHEN = 8;
const MARK_BITS = new Map<string, number>();
for (const [bit, marks] of [
  [DATE_MARK, DATE_MARKS],
  [NUMERIC_MARK, ["-", "/", ".", "–", "—", "‐", "‑", "‒", "−", "⁄", "_"]],
  [DOT, ["."]],
  [HYPHEN, ["-", "‐", "‑"]],
] as const) {
  for (const mark of marks) MARK_BITS.set(mark, (MARK_BITS.get(mark) ?? 0) | bit);
}

/**
 * Dashes and minus signs of every kind (two-em dashes, horizontal bars, modifier and heavy
 * minus signs): a reader takes any of them between numbers for a date's separator.
 */
const DASH_LIKE = /^[\p{Pd}\u2212\u02d7\u2796\u2e3a\u2e3b\ufe63\uff0d]$/u;

const MAX_REMEMBERED_MARKS = 4_096;

function markBits(mark: string): number {
  const known = MARK_BITS.get(mark);
  if (known !== undefined) return known;
  const bits = DASH_LIKE.test(mark) ? DATE_MARK | NUMERIC_MARK : 0;
  // Remembered up to a bound: texts may hold any of a million marks.
  if (MARK_BITS.size < MAX_REMEMBERED_MARKS) MARK_BITS.set(mark, bits);
  return bits;
}

/** Each mark's classes, looked up once per mark rather than at every test. */
function classifyMarks(tokens: Tokens): void {
  for (let at = 0; at < tokens.length; at++) {
    tokens.marks[at] = tokens.kind[at] === MARK ? markBits(tokens.text[at] as string) : 0;
  }
}

/** Whether a mark of class `bit` (a date's separator unless told) stands at `at`. */
function isMark(tokens: Tokens, at: number, bit: number = DATE_MARK): boolean {
  return at >= 0 && at < tokens.length && ((tokens.marks[at] as number) & bit) !== 0;
}

/**
 * Past marks and link words between two parts of a date (at most a few); not past the
 * apostrophe of a short year ('26), which is part of it. Any mark is passed, not only a date's
 * separators: a reader reads "June<3, 2026>" or "June (3), 2026" as a day.
 */
function skipLinks(tokens: Tokens, at: number): number {
  let next = at;
  while (
    next - at < 4 &&
    (tokens.kindAt(next) === MARK || LINK_WORDS.has(word(tokens, next) ?? ""))
  ) {
    if (isApostropheYear(tokens, next)) break;
    next += 1;
  }
  return next;
}

function isApostropheYear(tokens: Tokens, at: number): boolean {
  const mark = tokens.markAt(at);
  return (
    (mark === "'" || mark === "’") && digitsAt(tokens, at + 1) === 2 && touching(tokens, at + 1)
  );
}

function touching(tokens: Tokens, at: number): boolean {
  return tokens.touching(at);
}

/** The number of digits of the number at `at`, or 0 when no number stands there. */
function digitsAt(tokens: Tokens, at: number): number {
  return tokens.kindAt(at) === NUMBER ? (tokens.digits[at] as number) : 0;
}

function fourDigitYear(tokens: Tokens, at: number): number | null {
  if (digitsAt(tokens, at) !== 4) return null;
  const value = tokens.value[at] as number;
  return value >= FIRST_YEAR && value <= LAST_YEAR ? value : null;
}

function twoDigitYear(value: number): number {
  return value < 70 ? 2000 + value : 1900 + value;
}

/** A year: four digits, or two after an apostrophe ('26). Returns the year and the next index. */
function yearAt(tokens: Tokens, at: number): { year: number; next: number } | null {
  const full = fourDigitYear(tokens, at);
  if (full !== null) return { year: full, next: at + 1 };
  if (isApostropheYear(tokens, at)) {
    return { year: twoDigitYear(tokens.value[at + 1] as number), next: at + 2 };
  }
  return null;
}

/** A year, or two digits standing as one ("FY27", "Q3 26", "3Q26"). */
function shortOrLongYear(tokens: Tokens, at: number): { year: number; next: number } | null {
  const year = yearAt(tokens, at);
  if (year) return year;
  if (digitsAt(tokens, at) === 2) {
    return { year: twoDigitYear(tokens.value[at] as number), next: at + 1 };
  }
  return null;
}

function dayStart(year: number, month: number, day: number): number | null {
  if (year < FIRST_YEAR || year > LAST_YEAR || month < 0 || month > 11 || day < 1 || day > 31) {
    return null;
  }
  const time = Date.UTC(year, month, day);
  return new Date(time).getUTCMonth() === month ? time : null;
}

/** A day of a month without a year, read against the document's day (see the rules above). */
function yearlessDay(month: number, day: number, documentDay: number): number | null {
  const year = new Date(documentDay).getUTCFullYear();
  // From the year before: in January, a day of last December is a recent past day.
  for (let candidate = year - 1; candidate <= year + 4; candidate++) {
    const time = dayStart(candidate, month, day);
    if (time === null) continue;
    if (time >= documentDay) return time;
    if (documentDay - time <= RECENT_PAST_DAYS * DAY_MS) return time;
  }
  return null;
}

/**
 * A month named without a day or a year, read against the document's month: that month when
 * it is the document's own or one of the four before it (a recent past month), otherwise its
 * next occurrence. `after` asks for the first occurrence after the document's month ("next June").
 */
function yearlessMonth(month: number, documentDay: number, after: boolean): number {
  const date = new Date(documentDay);
  const documentMonth = date.getUTCMonth();
  const ahead = (month - documentMonth + 12) % 12;
  const recentPast = ahead >= 12 - RECENT_PAST_MONTHS;
  const offset = after ? ahead || 12 : recentPast ? ahead - 12 : ahead;
  return Date.UTC(date.getUTCFullYear(), documentMonth + offset, 1);
}

/**
 * A day and the index after it, packed in one number (index × 32 + day) so that trying a day at
 * every number of a text allocates nothing; NO_DAY when none.
 */
type PackedDay = number;
const NO_DAY = -1;
const dayOf = (packed: PackedDay) => packed & 31;
const afterDay = (packed: PackedDay) => packed >> 5;
const packed = (day: number, next: number): PackedDay => next * 32 + day;

/** A day of the month: 3, 3rd, 1er, "third", "twenty-first". */
function dayAt(tokens: Tokens, at: number): PackedDay {
  const kind = tokens.kindAt(at);
  if (kind === NUMBER) {
    const value = tokens.value[at] as number;
    if ((tokens.digits[at] as number) > 2 || value < 1 || value > 31) return NO_DAY;
    const after = tokens.kindAt(at + 1);
    if (after === WORD && touching(tokens, at + 1)) {
      return ORDINAL_SUFFIXES.has(tokens.text[at + 1] as string) ? packed(value, at + 2) : NO_DAY;
    }
    if (after === NUMBER && touching(tokens, at + 1)) return NO_DAY;
    return packed(value, at + 1);
  }
  if (kind !== WORD) return NO_DAY;
  const text = tokens.text[at] as string;
  const simple = ORDINAL_OF.get(text);
  if (simple !== undefined) return packed(simple, at + 1);
  const tens = ORDINAL_TENS.get(text);
  if (tens === undefined) return NO_DAY;
  const unitAt = isMark(tokens, at + 1) ? at + 2 : at + 1;
  const unit = ORDINAL_OF.get(word(tokens, unitAt) ?? "");
  return unit !== undefined && unit < 10 ? packed(tens + unit, unitAt + 1) : NO_DAY;
}

interface MonthWord {
  month: number;
  /** A word of another meaning elsewhere, read only in a whole day-month-year date. */
  shared: boolean;
  /** "may", "march": an English word too when written in small letters. */
  ambiguous: boolean;
  /** "Mayo", "Julio": a name, unless a day or a year makes it a date. */
  name: boolean;
  next: number;
}

function monthAt(tokens: Tokens, at: number): MonthWord | null {
  const text = word(tokens, at);
  if (text === null) return null;
  const month = MONTH_OF.get(text);
  if (month === undefined) return null;
  // "Sept." and "Jan." : the dot belongs to the abbreviation.
  const next = isMark(tokens, at + 1, DOT) && touching(tokens, at + 1) ? at + 2 : at + 1;
  const shape = tokens.shape[at];
  return {
    month,
    shared: isSharedMonthWord(text),
    ambiguous: AMBIGUOUS_MONTH_WORDS.has(text) && shape === LOWER,
    name: NAMES_WHEN_CAPITALISED.has(text) && shape === CAPITALISED,
    next,
  };
}

/** Part of a longer run of numbers joined by marks (a version, an ISBN, an address)? */
function inNumberChain(tokens: Tokens, first: number, last: number): boolean {
  if (isMark(tokens, first - 1, NUMERIC_MARK) && tokens.kindAt(first - 2) === NUMBER) {
    return touching(tokens, first - 1) && touching(tokens, first);
  }
  return (
    isMark(tokens, last + 1, NUMERIC_MARK) &&
    tokens.kindAt(last + 2) === NUMBER &&
    touching(tokens, last + 1) &&
    touching(tokens, last + 2)
  );
}

// ---- patterns ------------------------------------------------------------------------------

/** 2026-06-03 · 2026/6/3 · 03-06-2026 · 6/3/2026 · 03.06.26 (either order) */
function numericDate(tokens: Tokens, at: number): Match | null {
  const aDigits = digitsAt(tokens, at);
  const bDigits = digitsAt(tokens, at + 2);
  const cDigits = digitsAt(tokens, at + 4);
  if (aDigits === 0 || bDigits === 0 || cDigits === 0 || bDigits > 2) return null;
  if (!isMark(tokens, at + 1, NUMERIC_MARK) || !isMark(tokens, at + 3, NUMERIC_MARK)) return null;
  const a = tokens.value[at] as number;
  const b = tokens.value[at + 2] as number;
  const c = tokens.value[at + 4] as number;
  const next = at + 5;
  if (aDigits === 4) {
    const start = dayStart(a, b - 1, cDigits <= 2 ? c : -1);
    return { next, starts: start === null ? [] : [start] };
  }
  if (aDigits > 2 || (cDigits !== 4 && cDigits !== 2)) return null;
  if (inNumberChain(tokens, at, at + 4)) return null;
  const year = cDigits === 4 ? c : twoDigitYear(c);
  const starts: number[] = [];
  const dayFirstReading = dayStart(year, b - 1, a);
  if (dayFirstReading !== null) starts.push(dayFirstReading);
  const monthFirstReading = dayStart(year, a - 1, b);
  if (monthFirstReading !== null) starts.push(monthFirstReading);
  return { next, starts };
}

/** 20260603, and the date of 202606031200 or 20260603120000 */
function compactDate(tokens: Tokens, at: number): Match | null {
  const digits = digitsAt(tokens, at);
  if (digits !== 8 && digits !== 12 && digits !== 14) return null;
  // The value holds the first 15 digits exactly: the date is its first eight.
  const date = Math.floor((tokens.value[at] as number) / 10 ** (digits - 8));
  const start = dayStart(Math.floor(date / 10_000), (Math.floor(date / 100) % 100) - 1, date % 100);
  return start === null ? null : { next: at + 1, starts: [start] };
}

const YEAR_SIGNS = new Set(["年", "년"]);
const MONTH_SIGNS = new Set(["月", "월"]);
const DAY_SIGNS = new Set(["日", "일"]);

/** 2026年6月3日 · 2026年6月 · 6月3日 · 2026년 6월 3일 · 二〇二六年六月三日 · 令和8年6月3日 */
function ideographicDate(tokens: Tokens, at: number, documentDay: number): Match | null {
  let index = at;
  let year: number | null = null;
  const eraName = (word(tokens, index) ?? "") + (word(tokens, index + 1) ?? "");
  const era = JAPANESE_ERA_START.get(eraName);
  const written =
    era !== undefined ? ideographicNumber(tokens, index + 2) : ideographicNumber(tokens, index);
  if (era !== undefined && word(tokens, index + 2) === "元") {
    // 令和元年: the era's first year.
    index += 3;
    year = era + 1;
  } else if (era !== undefined && written !== null) {
    // 令和8年: the eighth year of the era.
    index = written.next;
    year = era + written.value;
  } else if (written !== null && written.digits === 4) {
    index = written.next;
    year = written.value;
  }
  if (year !== null) {
    if (!YEAR_SIGNS.has(word(tokens, index) ?? "")) return null;
    index = isMark(tokens, index + 1) ? index + 2 : index + 1;
  }
  const month = ideographicNumber(tokens, index);
  if (month === null || month.digits > 2 || !MONTH_SIGNS.has(word(tokens, month.next) ?? ""))
    return null;
  index = isMark(tokens, month.next + 1) ? month.next + 2 : month.next + 1;
  const day = ideographicNumber(tokens, index);
  if (day !== null && day.digits <= 2 && DAY_SIGNS.has(word(tokens, day.next) ?? "")) {
    const start =
      year === null
        ? yearlessDay(month.value - 1, day.value, documentDay)
        : dayStart(year, month.value - 1, day.value);
    return start === null ? null : { next: day.next + 1, starts: [start] };
  }
  if (year === null) return null;
  const start = dayStart(year, month.value - 1, 1);
  return start === null ? null : { next: index, starts: [start] };
}

/** The year before the first of each Japanese era, so that its year n is that year plus n. */
const JAPANESE_ERA_START = new Map([
  ["令和", 2018],
  ["平成", 1988],
]);
const HAN_DIGIT = new Map([
  ["〇", 0],
  ["零", 0],
  ["一", 1],
  ["二", 2],
  ["三", 3],
  ["四", 4],
  ["五", 5],
  ["六", 6],
  ["七", 7],
  ["八", 8],
  ["九", 9],
]);

/**
 * A number in digits, or in Han numerals: digit by digit (二〇二六) or with tens (十二, 二十三).
 * `digits` counts the places written, so that a year is told from a month.
 */
function ideographicNumber(
  tokens: Tokens,
  at: number,
): { value: number; digits: number; next: number } | null {
  if (tokens.kindAt(at) === NUMBER) {
    return { value: tokens.value[at] as number, digits: tokens.digits[at] as number, next: at + 1 };
  }
  let index = at;
  let value = 0;
  let places = 0;
  let tens: number | null = null;
  while (index - at < 6 && (index === at || touching(tokens, index))) {
    const text = word(tokens, index) ?? "";
    const digit = HAN_DIGIT.get(text);
    if (digit !== undefined) {
      value = value * 10 + digit;
      places += 1;
    } else if (text === "十" && tens === null) {
      tens = (places === 0 ? 1 : value) * 10;
      value = 0;
      places = 0;
    } else break;
    index += 1;
  }
  if (index === at) return null;
  if (tens !== null) return { value: tens + value, digits: 2, next: index };
  return { value, digits: places, next: index };
}

/** 2026Q3 · 2026 H2 · 2026-W23 · 2026W23 */
function yearFirstPeriod(tokens: Tokens, at: number): Match | null {
  const year = fourDigitYear(tokens, at);
  if (year === null) return null;
  const signAt = isMark(tokens, at + 1) ? at + 2 : at + 1;
  const sign = word(tokens, signAt);
  const count = number(tokens, signAt + 1, 2);
  if (sign === null || count === null || !touching(tokens, signAt + 1)) return null;
  const start = periodStart(sign, count, year);
  return start === null ? null : { next: signAt + 2, starts: [start] };
}

/**
 * in Q3 · by H2: a quarter or half without a year after a lead of time, read as a month alone is,
 * from its first month ("Q3 results" stays unread: no lead).
 */
function yearlessPeriod(
  tokens: Tokens,
  at: number,
  sign: string,
  count: number,
  documentDay: number,
): Match | null {
  if (BARE_MONTH_LEADS.get(word(tokens, at - 1) ?? "") !== TIME_LEAD) return null;
  const first = periodStart(sign, count, 2000);
  if (first === null || (sign !== "q" && sign !== "h")) return null;
  const month = new Date(first).getUTCMonth();
  return { next: at + 2, starts: [yearlessMonth(month, documentDay, false)] };
}

/** The first day of Qn, Hn or ISO week n of `year`. */
function periodStart(sign: string, count: number, year: number): number | null {
  if (sign === "q" && count >= 1 && count <= 4) return Date.UTC(year, 3 * (count - 1), 1);
  if (sign === "h" && count >= 1 && count <= 2) return Date.UTC(year, 6 * (count - 1), 1);
  if ((sign === "w" || sign === "kw" || sign === "week") && count >= 1 && count <= 53) {
    return isoWeekStart(year, count);
  }
  return null;
}

function isoWeekStart(year: number, week: number): number {
  const fourth = Date.UTC(year, 0, 4);
  const weekday = (new Date(fourth).getUTCDay() + 6) % 7;
  return fourth - weekday * DAY_MS + (week - 1) * 7 * DAY_MS;
}

/** June 3, 2026 · JUN. 3rd 2026 · June third · June 2026 · Jun '26 · June 3 (yearless) */
function monthFirst(tokens: Tokens, at: number, documentDay: number): Match | null {
  const month = monthAt(tokens, at);
  if (!month) return null;
  const apostropheYear = month.shared
    ? null
    : (yearAt(tokens, month.next) ??
      (isMark(tokens, month.next) ? yearAt(tokens, month.next + 1) : null));
  if (apostropheYear) {
    return { next: apostropheYear.next, starts: [Date.UTC(apostropheYear.year, month.month, 1)] };
  }
  const dayIndex = skipLinks(tokens, month.next);
  const day = dayIndex - month.next <= 2 ? dayAt(tokens, dayIndex) : NO_DAY;
  if (day !== NO_DAY) {
    const yearIndex = skipLinks(tokens, afterDay(day));
    const year = yearAt(tokens, yearIndex);
    if (year) {
      const start = dayStart(year.year, month.month, dayOf(day));
      return start === null ? null : { next: year.next, starts: [start] };
    }
    if (month.shared) return null;
    // "to march 10 miles": a small "march" before a number is a verb unless a preposition leads.
    if (month.ambiguous && !TIME_PREPOSITIONS.has(word(tokens, at - 1) ?? "")) return null;
    const starts: number[] = [];
    const yearless = yearlessDay(month.month, dayOf(day), documentDay);
    if (yearless !== null) starts.push(yearless);
    // "Jun-26" may be June 26 or June 2026: both are read.
    if (digitsAt(tokens, dayIndex) === 2 && isMark(tokens, month.next, NUMERIC_MARK)) {
      starts.push(Date.UTC(twoDigitYear(tokens.value[dayIndex] as number), month.month, 1));
    }
    return { next: afterDay(day), starts };
  }
  if (month.shared) return null;
  const year =
    yearAt(tokens, skipLinks(tokens, month.next)) ?? relativeYear(tokens, month.next, documentDay);
  if (!year) return null;
  return { next: year.next, starts: [Date.UTC(year.year, month.month, 1)] };
}

/** "this year", "next year" (past link words: "of this year"), as the document's year or the next. */
function relativeYear(
  tokens: Tokens,
  at: number,
  documentDay: number,
): { year: number; next: number } | null {
  const index = skipLinks(tokens, at);
  const which = word(tokens, index);
  if ((which !== "this" && which !== "next") || word(tokens, index + 1) !== "year") return null;
  const year = new Date(documentDay).getUTCFullYear() + (which === "next" ? 1 : 0);
  return { year, next: index + 2 };
}

/** A day or an ordinal first: a date (3 June 2026) or a period (the third quarter of 2026). */
function dayLed(tokens: Tokens, at: number, documentDay: number): Match | null {
  const day = dayAt(tokens, at);
  if (day === NO_DAY) return null;
  return dayFirst(tokens, at, day, documentDay) ?? ordinalPeriod(tokens, day, documentDay);
}

/** 3 June 2026 · 3rd of June, 2026 · 11. Mai 2026 · 3 de junio de 2026 · 03-JUN-26 · 3 juin */
function dayFirst(tokens: Tokens, at: number, day: PackedDay, documentDay: number): Match | null {
  const monthIndex = skipLinks(tokens, afterDay(day));
  const month = monthAt(tokens, monthIndex);
  if (!month) return null;
  const yearIndex = skipLinks(tokens, month.next);
  const year = yearAt(tokens, yearIndex);
  if (year) {
    const start = dayStart(year.year, month.month, dayOf(day));
    return start === null ? null : { next: year.next, starts: [start] };
  }
  // 03-JUN-26: two digits after a mark that also stands between day and month.
  if (
    digitsAt(tokens, yearIndex) === 2 &&
    isMark(tokens, month.next, NUMERIC_MARK) &&
    isMark(tokens, afterDay(day), NUMERIC_MARK)
  ) {
    const start = dayStart(
      twoDigitYear(tokens.value[yearIndex] as number),
      month.month,
      dayOf(day),
    );
    return start === null ? null : { next: yearIndex + 1, starts: [start] };
  }
  if (month.shared) return null;
  // "3 may be enough": a small "may" after a number is a verb unless a preposition leads.
  if (month.ambiguous && !TIME_PREPOSITIONS.has(word(tokens, at - 1) ?? "")) return null;
  const start = yearlessDay(month.month, dayOf(day), documentDay);
  return start === null ? null : { next: month.next, starts: [start] };
}

const PERIOD_WORDS = new Map([
  ["quarter", "q"],
  ["half", "h"],
]);

/** the third quarter of 2026 · second half 2026 */
function ordinalPeriod(tokens: Tokens, ordinal: PackedDay, documentDay: number): Match | null {
  const next = afterDay(ordinal);
  const wordAt = isMark(tokens, next) ? next + 1 : next;
  const sign = PERIOD_WORDS.get(word(tokens, wordAt) ?? "");
  if (sign === undefined) return null;
  return periodWithYear(tokens, sign, dayOf(ordinal), wordAt + 1, documentDay);
}

const SIGNS = new Set(["q", "h", "w", "kw"]);
const NUMBER_SIGNS = new Set(["q", "h"]);

/** Q3 2026 · Q3-26 · 3Q26 · H2 2026 · W23 2026 · week 23 of 2026 */
function signedPeriod(tokens: Tokens, at: number, documentDay: number): Match | null {
  const first = word(tokens, at);
  if (first !== null && SIGNS.has(first)) {
    const count = number(tokens, at + 1, 2);
    if (count === null || !touching(tokens, at + 1)) return null;
    return (
      periodWithYear(tokens, first, count, at + 2, documentDay) ??
      yearlessPeriod(tokens, at, first, count, documentDay)
    );
  }
  if (first === "qfy" || first === "hfy") return null;
  if (first === "week") {
    const countAt = isMark(tokens, at + 1) ? at + 2 : at + 1;
    const count = number(tokens, countAt, 2);
    return count === null ? null : periodWithYear(tokens, "week", count, countAt + 1, documentDay);
  }
  const sign = word(tokens, at + 1);
  if (digitsAt(tokens, at) === 1 && sign !== null && NUMBER_SIGNS.has(sign)) {
    if (!touching(tokens, at + 1)) return null;
    return periodWithYear(tokens, sign, tokens.value[at] as number, at + 2, documentDay);
  }
  // 3QFY26: the letters run together.
  const fiscal = sign === "qfy" ? "q" : sign === "hfy" ? "h" : null;
  if (digitsAt(tokens, at) === 1 && fiscal !== null && touching(tokens, at + 1)) {
    const year = shortOrLongYear(tokens, at + 2);
    const start =
      year && touching(tokens, at + 2)
        ? periodStart(fiscal, tokens.value[at] as number, year.year)
        : null;
    return start === null || !year ? null : { next: year.next, starts: [start] };
  }
  return null;
}

/**
 * The period `sign` `count` of the year read from `next` on (past link words). A fiscal year
 * ("Q3 FY26") counts from 1 January, as fiscalYear reads it.
 */
function periodWithYear(
  tokens: Tokens,
  sign: string,
  count: number,
  next: number,
  documentDay: number,
): Match | null {
  let yearIndex = skipLinks(tokens, next);
  if (word(tokens, yearIndex) === "fy") yearIndex = skipLinks(tokens, yearIndex + 1);
  const year = shortOrLongYear(tokens, yearIndex) ?? relativeYear(tokens, next, documentDay);
  if (!year) return null;
  const start = periodStart(sign, count, year.year);
  return start === null ? null : { next: year.next, starts: [start] };
}

/** FY2027 · FY 2027 · FY27 · FY2026/27 · fiscal 2027 · fiscal year 2027 */
function fiscalYear(tokens: Tokens, at: number): Match | null {
  const first = word(tokens, at);
  let next: number;
  if (first === "fy") next = isMark(tokens, at + 1) ? at + 2 : at + 1;
  else if (first === "fiscal") next = word(tokens, at + 1) === "year" ? at + 2 : at + 1;
  else return null;
  const year = first === "fy" ? shortOrLongYear(tokens, next) : yearAt(tokens, next);
  if (!year) return null;
  let latest = year.year;
  let end = year.next;
  // FY2026/27 and FY 2026-2027 name the year that ends in the second.
  if (isMark(tokens, end, NUMERIC_MARK) && touching(tokens, end)) {
    const second = shortOrLongYear(tokens, end + 1);
    if (second && second.year > latest) {
      latest = second.year;
      end = second.next;
    }
  }
  // FY26 Q3: a quarter or half of that fiscal year.
  const signAt = isMark(tokens, end) ? end + 1 : end;
  const sign = word(tokens, signAt);
  const count = number(tokens, signAt + 1, 1);
  if (sign !== null && NUMBER_SIGNS.has(sign) && count !== null && touching(tokens, signAt + 1)) {
    const start = periodStart(sign, count, latest);
    if (start !== null) return { next: signAt + 2, starts: [start] };
  }
  return { next: end, starts: [Date.UTC(latest, 0, 1)] };
}

/** summer 2026 · Summer of 2026 · l'été 2026 · verano de 2026 · Sommer 2026 */
function season(tokens: Tokens, at: number): Match | null {
  const month = SEASON_START.get(word(tokens, at) ?? "");
  if (month === undefined) return null;
  // Summer26, as fashion and retail write seasons.
  if (digitsAt(tokens, at + 1) === 2 && touching(tokens, at + 1)) {
    const short = twoDigitYear(tokens.value[at + 1] as number);
    return { next: at + 2, starts: [Date.UTC(short, month, 1)] };
  }
  const year = yearAt(tokens, skipLinks(tokens, at + 1));
  return year ? { next: year.next, starts: [Date.UTC(year.year, month, 1)] } : null;
}

/** the end of June · mid-June 2026 · late May: the day the part of the month starts. */
function edgeOfMonth(tokens: Tokens, at: number, documentDay: number): Match | null {
  const edge = MONTH_EDGE_DAY.get(word(tokens, at) ?? "");
  if (edge === undefined) return null;
  const month = monthAt(tokens, skipLinks(tokens, at + 1));
  if (!month || month.shared) return null;
  const year = yearAt(tokens, skipLinks(tokens, month.next));
  if (year) {
    const day = edge === 0 ? new Date(Date.UTC(year.year, month.month + 1, 0)).getUTCDate() : edge;
    return { next: year.next, starts: [Date.UTC(year.year, month.month, day)] };
  }
  const documentYear = new Date(documentDay).getUTCFullYear();
  const day = edge === 0 ? new Date(Date.UTC(documentYear, month.month + 1, 0)).getUTCDate() : edge;
  const start = yearlessDay(month.month, day, documentDay);
  return start === null ? null : { next: month.next, starts: [start] };
}

/**
 * in September · until mid-2026's… · by the September meeting · next June · en septiembre ·
 * im September · в сентябре: a month without a day or a year, in the place a time stands, read
 * against the document's month (see the rules above). Where a day or a year follows, the
 * patterns that start at the month read the whole date instead.
 */
function bareMonth(tokens: Tokens, at: number, documentDay: number): Match | null {
  const lead = word(tokens, at) as string;
  // "mi-septembre", "Mitte-September": a hyphen may join the lead to the month.
  let monthIndex = isMark(tokens, at + 1, HYPHEN) && touching(tokens, at + 2) ? at + 2 : at + 1;
  if (word(tokens, monthIndex) === "the") monthIndex += 1;
  const month = monthAt(tokens, monthIndex);
  if (!month) return bareSeason(tokens, at, monthIndex, documentDay);
  if (month.shared || month.name) return null;
  if (month.ambiguous) {
    // "to march", "for may", "during the march": small "march" and "may" are words there.
    if (monthIndex !== at + 1 || BARE_MONTH_LEADS.get(lead) !== TIME_LEAD) return null;
  }
  // A day or a year follows: the scan reads the whole date from the month on.
  if (monthFirst(tokens, monthIndex, documentDay)?.starts.length) return null;
  const after = lead === "next" || lead === "coming";
  return { next: month.next, starts: [yearlessMonth(month.month, documentDay, after)] };
}

/**
 * in summer · by the autumn · this fall · en verano: a season alone after a lead of time, read
 * as a month alone is, from the month it starts. "fall" is a word too: only after this, next or
 * coming. A year after it is left to the season pattern.
 */
function bareSeason(
  tokens: Tokens,
  at: number,
  seasonAt: number,
  documentDay: number,
): Match | null {
  const name = word(tokens, seasonAt) ?? "";
  const month = SEASON_START.get(name);
  if (month === undefined) return null;
  const lead = word(tokens, at) as string;
  const after = lead === "next" || lead === "coming";
  const relativeLead = after || lead === "this";
  if (!relativeLead && (BARE_MONTH_LEADS.get(lead) !== TIME_LEAD || name === "fall")) return null;
  // "in summer camp", "in spring training": a season before a small word is part of a name.
  if (!relativeLead && tokens.kindAt(seasonAt + 1) === WORD && tokens.shape[seasonAt + 1] === LOWER)
    return null;
  if (season(tokens, seasonAt)) return null;
  return { next: seasonAt + 1, starts: [yearlessMonth(month, documentDay, after)] };
}

const SPAN_LEADS = new Set(["in", "within"]);

/** English relative expressions, resolved against the document's day. */
function relative(tokens: Tokens, at: number, documentDay: number): Match | null {
  const first = word(tokens, at) ?? "";
  if (first === "today" || first === "tonight") return { next: at + 1, starts: [documentDay] };
  if (first === "yesterday") return { next: at + 1, starts: [documentDay - DAY_MS] };
  if (first === "tomorrow") {
    const dayAfter = word(tokens, at - 1) === "after" && word(tokens, at - 2) === "day";
    return { next: at + 1, starts: [documentDay + (dayAfter ? 2 : 1) * DAY_MS] };
  }
  if (first === "next" || first === "this" || first === "coming")
    return nextOne(tokens, at, documentDay);
  if (SPAN_LEADS.has(first)) {
    const span = spanAt(tokens, at + 1);
    // "in 24 hours the index fell", "within 48 hours of the attack": hours there are a length.
    if (!span || isHours(span) || word(tokens, span.next) === "of") return null;
    return { next: span.next, starts: [shifted(documentDay, span)] };
  }
  const span = spanAt(tokens, at);
  if (!span) return null;
  const after = word(tokens, span.next);
  const later = after === "later" || after === "after" || after === "afterwards";
  if (after === "hence" || (later && !isHours(span))) {
    return { next: span.next + 1, starts: [shifted(documentDay, span)] };
  }
  const from = word(tokens, span.next + 1);
  if (after === "from" && (from === "now" || from === "today" || from === "tomorrow")) {
    return { next: span.next + 2, starts: [shifted(documentDay, span)] };
  }
  return null;
}
/** next week · next Monday · this Friday · next month · next quarter */
function nextOne(tokens: Tokens, at: number, documentDay: number): Match | null {
  const what = word(tokens, at + 1);
  if (what === null) return null;
  const date = new Date(documentDay);
  const weekday = WEEKDAY_OF.get(what);
  if (weekday !== undefined) {
    const ahead = (weekday - date.getUTCDay() + 7) % 7 || (word(tokens, at) === "this" ? 0 : 7);
    return { next: at + 2, starts: [documentDay + ahead * DAY_MS] };
  }
  if (what === "weekend") return weekend(tokens, at, documentDay);
  if (word(tokens, at) === "this") return null;
  if (what === "week") {
    const toMonday = (8 - date.getUTCDay()) % 7 || 7;
    return { next: at + 2, starts: [documentDay + toMonday * DAY_MS] };
  }
  if (what === "month") {
    return { next: at + 2, starts: [Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1)] };
  }
  if (what === "quarter") {
    const quarter = Math.floor(date.getUTCMonth() / 3);
    return { next: at + 2, starts: [Date.UTC(date.getUTCFullYear(), 3 * (quarter + 1), 1)] };
  }
  return null;
}

interface Span {
  count: number;
  /** Days per unit; -1 for months. */
  unitDays: number;
  next: number;
}

/** "two weeks", "10 days", "a month", "a couple of weeks" */
function spanAt(tokens: Tokens, at: number): Span | null {
  let index = at;
  let count = number(tokens, index, 3);
  if (count === null) {
    count = COUNT_OF.get(word(tokens, index) ?? "") ?? null;
    if (count === null) return null;
    // "a few", "a couple of"
    const more = COUNT_OF.get(word(tokens, index + 1) ?? "");
    if ((word(tokens, index) === "a" || word(tokens, index) === "an") && more !== undefined) {
      count = more;
      index += 1;
    }
  }
  index += 1;
  if (word(tokens, index) === "of") index += 1;
  const unitDays = UNIT_DAYS.get(word(tokens, index) ?? "");
  return unitDays === undefined ? null : { count, unitDays, next: index + 1 };
}

/** A span of hours: a length of time more often than a time ahead, but "from now" or "hence". */
function isHours(span: Span): boolean {
  return span.unitDays > 0 && span.unitDays < 1;
}

function shifted(documentDay: number, span: Span): number {
  if (span.unitDays > 0) return documentDay + span.count * span.unitDays * DAY_MS;
  const date = new Date(documentDay);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + span.count, date.getUTCDate());
}

/** this weekend · next weekend: its Saturday. On a weekday "next weekend" may be the coming one
 * or the one after: both are read. */
function weekend(tokens: Tokens, at: number, documentDay: number): Match {
  const weekday = new Date(documentDay).getUTCDay();
  const coming = documentDay + (weekday === 0 ? -1 : 6 - weekday) * DAY_MS;
  if (word(tokens, at) === "this") return { next: at + 2, starts: [coming] };
  const after = coming + 7 * DAY_MS;
  return { next: at + 2, starts: weekday === 0 || weekday === 6 ? [after] : [coming, after] };
}

/** "Tomorrow", "next week" and "next month" in other languages, against the document's day. */
function foreignRelative(tokens: Tokens, at: number, documentDay: number): Match | null {
  const first = word(tokens, at) as string;
  if (TOMORROW_WORDS.has(first)) {
    if (first === "morgen" && tokens.shape[at] !== LOWER) return null;
    return { next: at + 1, starts: [documentDay + DAY_MS] };
  }
  let unit: "week" | "month" | undefined;
  let next: number;
  if (FOREIGN_NEXT.has(first)) {
    unit = FOREIGN_UNIT.get(word(tokens, at + 1) ?? "");
    next = at + 2;
  } else {
    unit = FOREIGN_UNIT.get(first);
    const after = word(tokens, at + 1) ?? "";
    if (FOREIGN_NEXT.has(after)) next = at + 2;
    else if (
      after === "que" &&
      (word(tokens, at + 2) === "viene" || word(tokens, at + 2) === "vem")
    )
      next = at + 3;
    else return null;
  }
  if (unit === undefined) return null;
  const date = new Date(documentDay);
  const start =
    unit === "week"
      ? documentDay + ((8 - date.getUTCDay()) % 7 || 7) * DAY_MS
      : Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
  return { next, starts: [start] };
}

/** 3.VI.2026 · 3 VI 2026 · 15/vi/2026 · 2026-VI-03: a month in Roman numerals, with a year. */
function romanDate(tokens: Tokens, at: number): Match | null {
  const year = fourDigitYear(tokens, at);
  if (year !== null) {
    if (!isMark(tokens, at + 1, NUMERIC_MARK) || !isMark(tokens, at + 3, NUMERIC_MARK)) return null;
    const month = romanMonthAt(tokens, at + 2);
    const day = number(tokens, at + 4, 2);
    const start = month === null || day === null ? null : dayStart(year, month, day);
    return start === null ? null : { next: at + 5, starts: [start] };
  }
  const day = number(tokens, at, 2);
  if (day === null) return null;
  const monthIndex = isMark(tokens, at + 1) ? at + 2 : at + 1;
  // Between a day and a year the numeral is a month in any case: 3 vi 2026.
  const month = ROMAN_MONTH.get(word(tokens, monthIndex) ?? "");
  if (month === undefined) return null;
  const yearIndex = isMark(tokens, monthIndex + 1) ? monthIndex + 2 : monthIndex + 1;
  const monthYear = fourDigitYear(tokens, yearIndex);
  const start = monthYear === null ? null : dayStart(monthYear, month, day);
  return start === null ? null : { next: yearIndex + 1, starts: [start] };
}

/** A month in Roman numerals: in capitals, or in small letters between a date's marks. */
function romanMonthAt(tokens: Tokens, at: number): number | null {
  const month = ROMAN_MONTH.get(word(tokens, at) ?? "");
  if (month === undefined) return null;
  if (tokens.shape[at] !== LOWER) return month;
  const marked =
    isMark(tokens, at - 1, NUMERIC_MARK) &&
    isMark(tokens, at + 1, NUMERIC_MARK) &&
    touching(tokens, at) &&
    touching(tokens, at + 1);
  return marked ? month : null;
}

/**
 * VI.2026 · vi.2026 · XII 2026: a Roman month and a year. Joined by a mark, in any case; apart,
 * only in capitals and of two letters or more ("Xi 2026" is a name).
 */
function romanMonthYear(tokens: Tokens, at: number): Match | null {
  const numeral = word(tokens, at) as string;
  const month = ROMAN_MONTH.get(numeral);
  if (month === undefined) return null;
  const shape = tokens.shape[at];
  let yearIndex: number;
  if (
    isMark(tokens, at + 1, NUMERIC_MARK) &&
    touching(tokens, at + 1) &&
    touching(tokens, at + 2)
  ) {
    yearIndex = at + 2;
  } else if (numeral.length >= 2 && shape === UPPER) yearIndex = at + 1;
  else return null;
  const year = fourDigitYear(tokens, yearIndex);
  if (year === null || inNumberChain(tokens, yearIndex, yearIndex)) return null;
  return { next: yearIndex + 1, starts: [Date.UTC(year, month, 1)] };
}

/** Words before a number that numbers a document rather than naming a month: "No. 12/2026". */
const NUMBER_WORDS = new Set(["no", "nr", "n", "number"]);

function numbersADocument(tokens: Tokens, at: number): boolean {
  if (tokens.markAt(at - 1) === "#") return true;
  const wordAt = tokens.markAt(at - 1) === "." || tokens.markAt(at - 1) === "º" ? at - 2 : at - 1;
  return NUMBER_WORDS.has(word(tokens, wordAt) ?? "");
}

/** 2026-06 · 2026/06 · 06/2026 · 06.2026: a month and its year in digits. */
function numericMonth(tokens: Tokens, at: number): Match | null {
  if (
    !isMark(tokens, at + 1, NUMERIC_MARK) ||
    !touching(tokens, at + 1) ||
    !touching(tokens, at + 2)
  )
    return null;
  if (inNumberChain(tokens, at, at + 2)) return null;
  const year = fourDigitYear(tokens, at);
  let month: number;
  let monthYear: number;
  if (year !== null) {
    // Two digits: 2025-6 is more often a span of years than June; 2030.12 is a decimal number.
    if (digitsAt(tokens, at + 2) !== 2 || isMark(tokens, at + 1, DOT)) return null;
    month = tokens.value[at + 2] as number;
    monthYear = year;
  } else {
    const later = fourDigitYear(tokens, at + 2);
    const digits = digitsAt(tokens, at);
    // Two digits, 06/2026: Law 7/2026 and Order No. 12/2026 number documents of a year.
    if (later === null || digits !== 2 || numbersADocument(tokens, at)) return null;
    // 11.2026 numbers a decree as often as it names November: with a dot, only 01–09.
    if (isMark(tokens, at + 1, DOT) && (tokens.value[at] as number) >= 10) return null;
    month = tokens.value[at] as number;
    monthYear = later;
  }
  return month >= 1 && month <= 12
    ? { next: at + 3, starts: [Date.UTC(monthYear, month - 1, 1)] }
    : null;
}

/** 2026 06 03 · 15 06 2026: a numeric date written with spaces, every part but the year of two digits. */
function spacedNumericDate(tokens: Tokens, at: number): Match | null {
  if (tokens.kindAt(at - 1) === NUMBER || tokens.kindAt(at + 3) === NUMBER) return null;
  const a = digitsAt(tokens, at);
  const b = digitsAt(tokens, at + 1);
  const c = digitsAt(tokens, at + 2);
  const first = tokens.value[at] as number;
  const second = tokens.value[at + 1] as number;
  const third = tokens.value[at + 2] as number;
  if (a === 4 && b === 2 && c === 2) {
    const start = dayStart(first, second - 1, third);
    return start === null ? null : { next: at + 3, starts: [start] };
  }
  if (a !== 2 || b !== 2 || c !== 4) return null;
  const starts = [dayStart(third, second - 1, first), dayStart(third, first - 1, second)].filter(
    (start): start is number => start !== null,
  );
  return { next: at + 3, starts };
}

function yearEdge(year: number, edge: number): number {
  return edge === 12 ? Date.UTC(year, 11, 31) : Date.UTC(year, edge, 1);
}

/**
 * early 2027 · mid-2026 · late '26 · the end of 2026 · the end of the year · end of this month:
 * a part of a year (in thirds, see YEAR_EDGE_MONTH), or of the document's own year or month.
 */
function edgeOfYear(tokens: Tokens, at: number, documentDay: number): Match | null {
  const edge = YEAR_EDGE_MONTH.get(word(tokens, at) ?? "");
  if (edge === undefined) return null;
  const next = skipLinks(tokens, at + 1);
  const year = yearAt(tokens, next);
  if (year) return { next: year.next, starts: [yearEdge(year.year, edge)] };
  const unitAt = word(tokens, next) === "this" ? next + 1 : next;
  const unit = word(tokens, unitAt);
  const date = new Date(documentDay);
  if (unit === "year") {
    return { next: unitAt + 1, starts: [yearEdge(date.getUTCFullYear(), edge)] };
  }
  if (unit !== "month") return null;
  const day = MONTH_EDGE_DAY.get(word(tokens, at) as string) as number;
  return {
    next: unitAt + 1,
    starts: [Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + (day === 0 ? 1 : 0), day)],
  };
}

/**
 * year-end · year end 2026 · month-end: the last day of the year named, else of the document's
 * month, or the year-end a yearless day of 31 December would be (see yearlessDay).
 */
function periodEnd(tokens: Tokens, at: number, documentDay: number): Match | null {
  const first = word(tokens, at) as string;
  let next = at + 1;
  if (first !== "yearend") {
    if (isMark(tokens, next, HYPHEN) && touching(tokens, next)) next += 1;
    if (word(tokens, next) !== "end") return null;
    next += 1;
  }
  if (PAST_LEADS.has(word(tokens, at - 1) ?? "")) return null;
  const date = new Date(documentDay);
  if (first === "month") {
    return { next, starts: [Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)] };
  }
  const year = yearAt(tokens, skipLinks(tokens, next));
  if (year) return { next: year.next, starts: [Date.UTC(year.year, 11, 31)] };
  // "year-end bonus": without a year, only after a lead of time ("by year-end", "at year end").
  const lead = word(tokens, at - 1) ?? "";
  if (lead !== "at" && BARE_MONTH_LEADS.get(lead) !== TIME_LEAD) return null;
  const start = yearlessDay(11, 31, documentDay);
  return start === null ? null : { next, starts: [start] };
}

/** the back half of 2026 · the front half of 2027 */
function halfByWord(tokens: Tokens, at: number, documentDay: number): Match | null {
  const half = HALF_WORDS.get(word(tokens, at) ?? "");
  if (half === undefined || word(tokens, at + 1) !== "half") return null;
  return periodWithYear(tokens, "h", half, at + 2, documentDay);
}

/** September's vote: a month's possessive names it, unless the month is a given name too. */
function possessiveMonth(tokens: Tokens, at: number, documentDay: number): Match | null {
  const month = monthAt(tokens, at);
  if (!month || month.shared || month.name || tokens.shape[at] === LOWER) return null;
  if (GIVEN_NAME_MONTHS.has(tokens.text[at] as string)) return null;
  const mark = tokens.markAt(month.next);
  if ((mark !== "'" && mark !== "’") || word(tokens, month.next + 1) !== "s") return null;
  if (!touching(tokens, month.next) || !touching(tokens, month.next + 1)) return null;
  if (PAST_LEADS.has(word(tokens, at - 1) ?? "")) return null;
  return { next: month.next + 2, starts: [yearlessMonth(month.month, documentDay, false)] };
}

/** The September meeting · its December session: a capitalised month alone before a small word. */
function monthBeforeNoun(tokens: Tokens, at: number, documentDay: number): Match | null {
  const month = monthAt(tokens, at + 1);
  if (!month || month.shared || month.name || tokens.shape[at + 1] === LOWER) return null;
  if (tokens.kindAt(month.next) !== WORD || tokens.shape[month.next] !== LOWER) return null;
  if (LINK_WORDS.has(word(tokens, month.next) ?? "")) return null;
  return { next: month.next, starts: [yearlessMonth(month.month, documentDay, false)] };
}

const HOLIDAY_LEADS = new Set(["on", "at", "this", "next", "coming", "over"]);

/** Christmas 2026 · Easter 2027 · New Year's Eve · by Christmas (yearless, see yearlessDay). */
function holiday(tokens: Tokens, at: number, documentDay: number): Match | null {
  const names = HOLIDAYS.get(word(tokens, at) ?? "") ?? [];
  if (word(tokens, at) === "new" && tokens.shape[at] === LOWER) return null;
  for (const [rest, dayIn] of names) {
    const written = rest.every(
      (part, index) => (word(tokens, at + 1 + index) ?? tokens.markAt(at + 1 + index)) === part,
    );
    if (!written) continue;
    const next = at + 1 + rest.length;
    if (NOT_A_HOLIDAY_AFTER.has(word(tokens, next) ?? "")) return null;
    if (PAST_LEADS.has(word(tokens, at - 1) ?? "")) return null;
    const year = yearAt(tokens, skipLinks(tokens, next));
    if (year) return { next: year.next, starts: [dayIn(year.year)] };
    // "Christmas tree sales": without a year, only after a lead of time ("by Christmas").
    const lead = word(tokens, at - 1) ?? "";
    if (!HOLIDAY_LEADS.has(lead) && BARE_MONTH_LEADS.get(lead) !== TIME_LEAD) return null;
    const documentYear = new Date(documentDay).getUTCFullYear();
    for (let candidate = documentYear - 1; candidate <= documentYear + 1; candidate++) {
      const time = dayIn(candidate);
      if (time >= documentDay || documentDay - time <= RECENT_PAST_DAYS * DAY_MS) {
        return { next, starts: [time] };
      }
    }
    return null;
  }
  return null;
}

/**
 * © 2027 · Copyright 2024–2027 · (c) 2027: a page's copyright year says when it was rendered, so
 * a later one says the text may be later too. It counts from 1 January of its last year.
 */
function copyrightYear(tokens: Tokens, at: number): Match | null {
  const first = word(tokens, at);
  if (first === "c") {
    const enclosed = tokens.markAt(at - 1) === "(" && tokens.markAt(at + 1) === ")";
    if (!enclosed || !touching(tokens, at) || !touching(tokens, at + 1)) return null;
  }
  let index = first === "c" ? at + 2 : at + 1;
  if (isMark(tokens, index) || tokens.markAt(index) === "©") index += 1;
  const year = fourDigitYear(tokens, index);
  if (year === null) return null;
  let latest = year;
  let next = index + 1;
  const second = isMark(tokens, next, NUMERIC_MARK) ? fourDigitYear(tokens, next + 1) : null;
  if (second !== null && second > latest) {
    latest = second;
    next += 2;
  }
  return { next, starts: [Date.UTC(latest, 0, 1)] };
}
