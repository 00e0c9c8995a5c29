export const SECONDS_PER_DAY = 86_400;

/** A range of time read a page of UTC days at a time, as OpenAI's usage and costs pages are. */
export interface DayRange {
  /** Unix seconds, inclusive. */
  startTime: number;
  /** Unix seconds, exclusive. */
  endTime: number;
  /** Days per page. */
  limit: number;
  /** Where this page starts (Unix seconds, a day's start); default the first day of the range. */
  page?: number | undefined;
}

/** The days of one page: rows are read from `from` to `to`, and grouped by `day`. */
export interface DayPage {
  firstDay: number;
  days: number;
  /** Unix seconds, inclusive. */
  from: number;
  /** Unix seconds, exclusive. */
  to: number;
  /** The start of the next page's first day; null on the last page. */
  nextPage: number | null;
}

/** One day of a page with its results; the part of the day inside the range. */
export interface DayBucket<T> {
  startTime: number;
  endTime: number;
  results: T[];
}

export function dayPage(range: DayRange): DayPage {
  const firstDay = Math.floor((range.page ?? range.startTime) / SECONDS_PER_DAY);
  const lastDay = Math.ceil(range.endTime / SECONDS_PER_DAY) - 1;
  const days = Math.max(0, Math.min(range.limit, lastDay - firstDay + 1));
  const next = firstDay + days;
  return {
    firstDay,
    days,
    from: Math.max(range.startTime, firstDay * SECONDS_PER_DAY),
    to: Math.min(range.endTime, next * SECONDS_PER_DAY),
    nextPage: next <= lastDay ? next * SECONDS_PER_DAY : null,
  };
}

/** Every day of the page, empty ones too, each with its rows in the order given. */
export function dayBuckets<T extends { day: number }>(
  page: DayPage,
  rows: readonly T[],
): DayBucket<Omit<T, "day">>[] {
  const buckets: DayBucket<Omit<T, "day">>[] = [];
  for (let day = page.firstDay; day < page.firstDay + page.days; day++) {
    buckets.push({
      startTime: Math.max(page.from, day * SECONDS_PER_DAY),
      endTime: Math.min(page.to, (day + 1) * SECONDS_PER_DAY),
      results: rows.filter((row) => row.day === day).map(({ day: _day, ...result }) => result),
    });
  }
  return buckets;
}
