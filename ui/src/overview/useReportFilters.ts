import { useState } from 'react';
import { DEFAULT_OVERVIEW_FILTERS, type OverviewFilters } from '../api/reports';

/**
 * The filters of a report over a closed range (the overview, Pricing Analytics): the last 30 days first; clearing the
 * preset goes back to them; `ready` once a custom range has both of its days.
 */
export function useReportFilters() {
  const [filters, setFilters] = useState<OverviewFilters>(DEFAULT_OVERVIEW_FILTERS);
  const setFilter = (change: Partial<OverviewFilters>) =>
    setFilters((f) => ({ ...f, ...change, ...(change.date_range === '' ? { date_range: DEFAULT_OVERVIEW_FILTERS.date_range } : {}) }));
  const ready = filters.date_range !== 'custom' || (filters.from !== '' && filters.to !== '');
  return { filters, setFilter, ready };
}
