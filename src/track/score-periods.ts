/** A range of prediction dates, Unix seconds: from inclusive, to exclusive; null is unbounded. */
export interface DateRange {
  from: number | null;
  to: number | null;
}

/** Where a report reads each part of its range from. */
export interface RangePlan {
  /** Whole UTC months: the month totals. */
  months: DateRange[];
  /** Whole UTC days outside those months: the day totals. */
  days: DateRange[];
  /** The part days before and after the whole days: the forecasts themselves. */
  forecasts: DateRange[];
}

const DAY = 86_400;

export const dayStart = (date: number): number => Math.floor(date / DAY) * DAY;

export function monthStart(date: number): number {
  const day = new Date(date * 1000);
  return Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), 1) / 1000;
}

export function weekStart(date: number): number {
  // 1970-01-01 was a Thursday: weeks start on Monday, 3 days before a Thursday.
  return Math.floor((date + 3 * DAY) / (7 * DAY)) * 7 * DAY - 3 * DAY;
}

const ceilDay = (date: number): number => dayStart(date + DAY - 1);

function ceilMonth(date: number): number {
  const start = monthStart(date);
  if (start === date) return start;
  const day = new Date(start * 1000);
  return Date.UTC(day.getUTCFullYear(), day.getUTCMonth() + 1, 1) / 1000;
}

/**
 * Splits [from, to) into whole months, whole days and the part days at its ends, so that a
 * report adds up a few hundred totals and at most two days of forecasts. Without `months`
 * (a report by week) whole days are read from the day totals.
 */
export function planRange(range: DateRange, months = true): RangePlan {
  const { from, to } = range;
  const dayFrom = from === null ? null : ceilDay(from);
  const dayTo = to === null ? null : dayStart(to);
  if (dayFrom !== null && dayTo !== null && dayFrom >= dayTo) {
    return { months: [], days: [], forecasts: [{ from, to }] };
  }
  const forecasts: DateRange[] = [];
  if (from !== null && dayFrom !== null && from < dayFrom) forecasts.push({ from, to: dayFrom });
  if (to !== null && dayTo !== null && dayTo < to) forecasts.push({ from: dayTo, to });
  const monthFrom = dayFrom === null ? null : ceilMonth(dayFrom);
  const monthTo = dayTo === null ? null : monthStart(dayTo);
  if (!months || (monthFrom !== null && monthTo !== null && monthFrom >= monthTo)) {
    return { months: [], days: [{ from: dayFrom, to: dayTo }], forecasts };
  }
  const days: DateRange[] = [];
  if (dayFrom !== null && dayFrom !== monthFrom) days.push({ from: dayFrom, to: monthFrom });
  if (dayTo !== null && monthTo !== dayTo) days.push({ from: monthTo, to: dayTo });
  return { months: [{ from: monthFrom, to: monthTo }], days, forecasts };
}
