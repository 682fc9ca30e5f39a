import { describe, expect, it } from 'vitest';
import {
  DATE_RANGE_LABELS,
  DATE_RANGE_PRESETS,
  DATE_RANGE_PRESETS_WITH_14_DAYS,
  dayCount,
  type DayCountPeriod,
} from './dateRange';

describe('date-range presets', () => {
  it('lists today through custom', () => {
    expect(DATE_RANGE_PRESETS.map((p) => DATE_RANGE_LABELS[p])).toEqual([
      'Today',
      'Yesterday',
      'This week',
      'This month',
      'Last 7 days',
      'Last week',
      'Last 30 days',
      'Last month',
      'Custom',
    ]);
  });

  it('has one list that adds the last 14 days', () => {
    expect(DATE_RANGE_PRESETS_WITH_14_DAYS.filter((p) => p !== 'last_14_days')).toEqual([...DATE_RANGE_PRESETS]);
    expect(DATE_RANGE_LABELS.last_14_days).toBe('Last 14 days');
  });
});

describe('day counts', () => {
  // Wednesday 2026-07-15 10:00 UTC.
  const wednesday = new Date('2026-07-15T10:00:00Z');

  it.each<[string, DayCountPeriod, Date, number, number]>([
    ['lifetime is 0', 'lifetime', wednesday, 0, 0],
    ['today is 0', 'today', wednesday, 0, 0],
    ['yesterday is 1', 'yesterday', wednesday, 0, 1],
    ['this week on a Wednesday: 2 days since Monday', 'this_week', wednesday, 0, 2],
    ['this week on a Monday', 'this_week', new Date('2026-07-13T00:00:00Z'), 0, 0],
    ['this week on a Sunday', 'this_week', new Date('2026-07-19T23:59:59Z'), 0, 6],
    ['this month on the 15th', 'this_month', wednesday, 0, 14],
    ['this month on the 1st', 'this_month', new Date('2026-08-01T08:00:00Z'), 0, 0],
    ['this month on the 31st', 'this_month', new Date('2026-07-31T12:00:00Z'), 0, 30],
    ['the seller’s offset can make it tomorrow (Thursday the 16th)', 'this_week', new Date('2026-07-15T20:00:00Z'), 7, 3],
    ['or yesterday (Sunday the 31st of May)', 'this_month', new Date('2026-06-01T03:00:00Z'), -5, 30],
  ])('%s', (_name, period, now, offset, want) => {
    expect(dayCount(period, now, offset)).toBe(want);
  });
});
