/** The date-range presets of the report filters, in menu order. */
export const DATE_RANGE_PRESETS = [
  'today',
  'yesterday',
  'this_week',
  'this_month',
  'last_7_days',
  'last_week',
  'last_30_days',
  'last_month',
  'custom',
] as const;

/** The one list that adds "last 14 days", right after "last 7 days". */
export const DATE_RANGE_PRESETS_WITH_14_DAYS = [
  'today',
  'yesterday',
  'this_week',
  'this_month',
  'last_7_days',
  'last_14_days',
  'last_week',
  'last_30_days',
  'last_month',
  'custom',
] as const;

export type DateRangePreset = (typeof DATE_RANGE_PRESETS_WITH_14_DAYS)[number];

export const DATE_RANGE_LABELS: Readonly<Record<DateRangePreset, string>> = {
  today: 'Today',
  yesterday: 'Yesterday',
  this_week: 'This week',
  this_month: 'This month',
  last_7_days: 'Last 7 days',
  last_14_days: 'Last 14 days',
  last_week: 'Last week',
  last_30_days: 'Last 30 days',
  last_month: 'Last month',
  custom: 'Custom',
};

/** The periods that have a day count. */
export type DayCountPeriod = 'lifetime' | 'today' | 'yesterday' | 'this_week' | 'this_month';

const HOUR_MS = 3_600_000;

/**
 * The day count: lifetime and today 0, yesterday 1, this_week the days since Monday
 * (0 on a Monday, 6 on a Sunday), this_month the days since the first (0 on the 1st). "Today" is
 * the seller's: `now` shifted by their utc_offset in hours.
 */
export function dayCount(period: DayCountPeriod, now: Date = new Date(), utcOffsetHours = 0): number {
  const local = new Date(now.getTime() + utcOffsetHours * HOUR_MS);
  switch (period) {
    case 'lifetime':
    case 'today':
      return 0;
    case 'yesterday':
      return 1;
    case 'this_week':
      return (local.getUTCDay() + 6) % 7;
    case 'this_month':
      return local.getUTCDate() - 1;
  }
}
